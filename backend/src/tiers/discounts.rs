//! The VIP set the spot and futures engines read at each fill: a user in it pays its fee rate less
//! the configured discount. Loaded from `user.user_type` at start and reloaded by every instance on
//! each tick of the tier job, so an instance that does not hold the job's lease follows too.

use std::collections::HashSet;
use std::sync::RwLock;

use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QuerySelect};

use super::table::{VIP, discounted};
use crate::entity::user;

/// The VIP users and their fee discount.
#[derive(Debug, Default)]
pub struct FeeDiscounts {
    discount: Decimal,
    vip: RwLock<HashSet<i64>>,
}

impl FeeDiscounts {
    /// An empty set whose VIPs will get `discount` (a fraction, 0 to 1).
    pub fn new(discount: Decimal) -> Self {
        Self {
            discount,
            vip: RwLock::default(),
        }
    }

    /// The fee rate `user_id` pays where others pay `rate`.
    pub fn rate(&self, user_id: i64, rate: Decimal) -> Decimal {
        if self.is_vip(user_id) {
            discounted(rate, self.discount)
        } else {
            rate
        }
    }

    /// Whether `user_id` is in the VIP set.
    pub fn is_vip(&self, user_id: i64) -> bool {
        self.vip
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .contains(&user_id)
    }

    /// Puts `user_id` in or out of the set.
    pub fn set(&self, user_id: i64, vip: bool) {
        let mut set = self.vip.write().unwrap_or_else(|e| e.into_inner());
        if vip {
            set.insert(user_id);
        } else {
            set.remove(&user_id);
        }
    }

    /// Replaces the set with the users stored as VIP.
    pub async fn reload(&self, db: &impl ConnectionTrait) -> Result<(), DbErr> {
        let ids: Vec<i64> = user::Entity::find()
            .select_only()
            .column(user::Column::Id)
            .filter(user::Column::UserType.eq(VIP))
            .into_tuple()
            .all(db)
            .await?;
        *self.vip.write().unwrap_or_else(|e| e.into_inner()) = ids.into_iter().collect();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    #[test]
    fn only_a_vip_pays_the_discounted_rate() {
        let discounts = FeeDiscounts::new(dec!(0.25));
        discounts.set(7, true);
        assert_eq!(discounts.rate(7, dec!(0.001)), dec!(0.00075));
        assert_eq!(discounts.rate(8, dec!(0.001)), dec!(0.001));
        discounts.set(7, false);
        assert_eq!(discounts.rate(7, dec!(0.001)), dec!(0.001));
    }
}
