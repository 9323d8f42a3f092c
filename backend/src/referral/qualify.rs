//! Whether an ancestor earns a rebate on an invitee's fee, and why not: the fee is zero, the
//! invitee has not passed identity verification, or the two accounts logged in from the same IP
//! address (a duplicate account). The batch asks once per invitee and ancestor and remembers.

use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};

use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QuerySelect};

use crate::entity::{login_log, user};

/// Why a rebate was withheld (stored on its row, shown in the statement).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Withheld {
    /// The fill's fee was zero.
    ZeroFee,
    /// The invitee has not passed identity verification (KYC level 0).
    NotVerified,
    /// The invitee and the ancestor logged in from the same IP address.
    SameAddress,
}

impl Withheld {
    /// The stored reason.
    pub fn as_str(self) -> &'static str {
        match self {
            Withheld::ZeroFee => "zero_fee",
            Withheld::NotVerified => "not_verified",
            Withheld::SameAddress => "same_address",
        }
    }
}

/// Which rules apply (from `[referral]`).
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    /// Withhold when the invitee is not verified.
    pub unverified: bool,
    /// Withhold when the two logged in from the same address.
    pub same_address: bool,
}

/// What the batch has read about users so far.
#[derive(Default)]
pub struct Qualifier {
    levels: HashMap<i64, i32>,
    addresses: HashMap<i64, BTreeSet<String>>,
}

impl Qualifier {
    async fn level(&mut self, db: &impl ConnectionTrait, user_id: i64) -> Result<i32, DbErr> {
        if let Some(level) = self.levels.get(&user_id) {
            return Ok(*level);
        }
        let level = user::Entity::find_by_id(user_id)
            .one(db)
            .await?
            .map_or(0, |u| u.kyc_level);
        self.levels.insert(user_id, level);
        Ok(level)
    }

    async fn addresses(
        &mut self,
        db: &impl ConnectionTrait,
        user_id: i64,
    ) -> Result<&BTreeSet<String>, DbErr> {
        if let Entry::Vacant(slot) = self.addresses.entry(user_id) {
            let found: Vec<String> = login_log::Entity::find()
                .select_only()
                .column(login_log::Column::Ip)
                .distinct()
                .filter(login_log::Column::UserId.eq(user_id))
                .filter(login_log::Column::Success.eq(true))
                .into_tuple()
                .all(db)
                .await?;
            slot.insert(found.into_iter().filter(|ip| !ip.is_empty()).collect());
        }
        Ok(&self.addresses[&user_id])
    }

    /// Why `ancestor` earns nothing on `payer`'s `fee` under `rules`, if so.
    pub async fn withheld(
        &mut self,
        db: &impl ConnectionTrait,
        rules: Rules,
        payer: i64,
        ancestor: i64,
        fee_is_zero: bool,
    ) -> Result<Option<Withheld>, DbErr> {
        if fee_is_zero {
            return Ok(Some(Withheld::ZeroFee));
        }
        if rules.unverified && self.level(db, payer).await? == 0 {
            return Ok(Some(Withheld::NotVerified));
        }
        if rules.same_address {
            let theirs = self.addresses(db, ancestor).await?.clone();
            let shared = self
                .addresses(db, payer)
                .await?
                .iter()
                .any(|ip| theirs.contains(ip));
            if shared {
                return Ok(Some(Withheld::SameAddress));
            }
        }
        Ok(None)
    }
}
