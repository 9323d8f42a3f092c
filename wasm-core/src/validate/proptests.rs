//! Property tests: no public entry of [`crate::validate`] panics, whatever it is given.

use proptest::prelude::*;
use serde_json::Value;

use super::*;

/// Any JSON value, a few levels deep, with keys that often hit the forms' field names.
fn json() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("coin".to_owned()),
        Just("amount".to_owned()),
        Just("available".to_owned()),
        Just("maxDecimals".to_owned()),
        Just("network".to_owned()),
        Just("address".to_owned()),
        Just("rule".to_owned()),
        Just("password".to_owned()),
        Just("cardNumber".to_owned()),
        Just("swiftCode".to_owned()),
        Just("side".to_owned()),
        Just("orderType".to_owned()),
        Just("price".to_owned()),
        Just("quantity".to_owned()),
        Just("quoteAmount".to_owned()),
        Just("tickSize".to_owned()),
        Just("stepSize".to_owned()),
        Just("minNotional".to_owned()),
        Just("lastPrice".to_owned()),
        "\\PC{0,8}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "\\PC{0,24}".prop_map(Value::from),
        "[0-9.]{0,12}".prop_map(Value::from),
        Just(Value::from("A")),
        Just(Value::from("TRC20")),
        Just(Value::from("buy")),
        Just(Value::from("market")),
    ];
    leaf.prop_recursive(3, 32, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::btree_map(key.clone(), inner, 0..8)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

fn run_forms(value: &Value) {
    if let Ok(shape) = serde_json::from_value::<ValueShape>(value.clone()) {
        let _ = is_empty(shape);
    }
    if let Ok(form) = serde_json::from_value(value.clone()) {
        let _ = validate_required(&form, &["coin", "amount", ""]);
    }
    if let Ok(form) = serde_json::from_value(value.clone()) {
        let _ = validate_password_change(&form);
    }
    if let Ok(form) = serde_json::from_value(value.clone()) {
        let _ = validate_deposit_form(&form);
    }
    if let Ok(form) = serde_json::from_value(value.clone()) {
        let _ = validate_withdrawal_form(&form);
    }
    if let Ok(form) = serde_json::from_value(value.clone()) {
        let _ = validate_identity_form(&form);
    }
    if let Ok(form) = serde_json::from_value(value.clone()) {
        let _ = validate_bank_card_form(&form);
    }
    if let Ok(form) = serde_json::from_value(value.clone()) {
        let _ = validate_spot_order(&form);
    }
}

/// The fields of a spot order form, in the order their errors come.
const SPOT_FIELDS: [&str; 6] = [
    "side",
    "orderType",
    "triggerPrice",
    "price",
    "quantity",
    "quoteAmount",
];

/// A user field of the spot form: anything, a number input, or missing.
fn spot_input() -> impl Strategy<Value = Option<String>> {
    proptest::option::of(prop_oneof!["\\PC{0,12}", "[0-9]{0,31}(\\.[0-9]{0,30})?"])
}

/// A decimal of the caller's data: mostly well formed, sometimes not.
fn spot_decimal() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[0-9]{1,29}(\\.[0-9]{0,29})?",
        1 => "-?[0-9.]{0,6}|\\PC{0,6}",
    ]
}

proptest! {
    #[test]
    fn single_values_never_panic(text in "\\PC{0,100}", other in "\\PC{0,20}") {
        for rule in [PasswordRule::A, PasswordRule::B, PasswordRule::C] {
            let _ = validate_password(&text, rule);
        }
        let _ = PasswordRule::from_name(&other);
        let _ = validate_email(&text);
        let _ = validate_anti_code(&text);
        let _ = validate_otp_code(&text);
        if let Ok(phone) = normalize_phone(&text) {
            prop_assert_eq!(normalize_phone(&phone), Ok(phone.clone()));
        }
        let _ = validate_address(&other, &text);
        for network in ["BTC", "ETH", "TRC20"] {
            let _ = validate_address(network, &text);
        }
    }

    #[test]
    fn phones_normalize_to_their_digits(text in "\\+?[0-9 .()-]{0,24}") {
        let digits: String = text.chars().filter(char::is_ascii_digit).collect();
        match normalize_phone(&text) {
            Ok(phone) => prop_assert_eq!(phone, format!("+{digits}")),
            Err(violation) => prop_assert!(
                violation == Violation::Required || !(5..=15).contains(&digits.len()),
                "{text:?}: {violation:?}"
            ),
        }
    }

    #[test]
    fn address_alphabets_never_panic(
        base58 in "[1-9A-HJ-NP-Za-km-z]{0,60}",
        bech32 in "(bc1|BC1|tb1)?[qpzry9x8gf2tvdw0s3jn54khce6mua7l1]{0,90}",
        hex in "0x[0-9a-fA-F]{0,44}",
    ) {
        for network in ["BTC", "ETH", "TRC20"] {
            let _ = validate_address(network, &base58);
            let _ = validate_address(network, &bech32);
            let _ = validate_address(network, &hex);
        }
    }

    #[test]
    fn forms_never_panic(value in json()) {
        run_forms(&value);
    }

    #[test]
    fn form_fields_never_panic(
        amount in "\\PC{0,30}|[0-9.]{0,30}",
        available in "-?[0-9]{0,30}(\\.[0-9]{0,30})?",
        max_decimals in proptest::option::of(0_u32..40),
        text in "\\PC{0,250}",
    ) {
        let withdrawal = WithdrawalForm {
            network: Some("BTC".into()),
            address: Some(text.clone()),
            amount: Some(amount.clone()),
            fund_password: Some(text.clone()),
            available,
            max_decimals,
        };
        let _ = validate_withdrawal_form(&withdrawal);
        let _ = validate_deposit_form(&DepositForm {
            coin: Some(text.clone()),
            amount: Some(amount),
            screenshot: None,
        });
        let _ = validate_identity_form(&IdentityForm {
            name: Some(text.clone()),
            id_card: Some(text.clone()),
            country: Some(text.clone()),
            card_type: Some(text.clone()),
        });
        let _ = validate_bank_card_form(&BankCardForm {
            card_number: Some(text.clone()),
            bank_name: Some(text.clone()),
            bank_address: Some(text.clone()),
            bank_phone: Some(text.clone()),
            swift_code: Some(text.clone()),
            branch: Some(text.clone()),
            home_address: Some(text),
        });
    }

    #[test]
    fn spot_orders_never_panic(
        side in proptest::option::of(prop_oneof![Just("buy".to_owned()), Just("sell".to_owned()), "\\PC{0,6}"]),
        order_type in proptest::option::of(prop_oneof![
            Just("limit".to_owned()), Just("market".to_owned()), Just("stop_limit".to_owned()), "\\PC{0,6}"
        ]),
        (price, trigger_price, quantity, quote_amount) in (spot_input(), spot_input(), spot_input(), spot_input()),
        (tick_size, step_size, min_notional) in (spot_decimal(), spot_decimal(), spot_decimal()),
        (last_price, available_base, available_quote) in (
            proptest::option::of(spot_decimal()),
            proptest::option::of(spot_decimal()),
            proptest::option::of(spot_decimal()),
        ),
    ) {
        let form = SpotOrderForm {
            side, order_type, price, trigger_price, quantity, quote_amount,
            tick_size, step_size, min_notional, last_price, available_base, available_quote,
        };
        if let Ok(errors) = validate_spot_order(&form) {
            // At most one error per field, in the form's order.
            let positions: Vec<usize> = errors
                .iter()
                .map(|e| SPOT_FIELDS.iter().position(|f| *f == e.field).expect("a form field"))
                .collect();
            prop_assert!(positions.windows(2).all(|w| w[0] < w[1]), "{errors:?}");
        }
    }

    #[test]
    fn spot_orders_on_the_grid_pass(
        side in prop_oneof![Just("buy"), Just("sell")],
        stop in any::<bool>(),
        (tick_scale, step_scale) in (0_u32..=8, 0_u32..=8),
        (tick_units, step_units) in (1_i64..=50, 1_i64..=50),
        (price_ticks, trigger_ticks, quantity_steps) in (1_i64..=1_000_000_000, 1_i64..=1_000_000_000, 1_i64..=1_000_000_000),
    ) {
        use rust_decimal::Decimal;
        let tick = Decimal::new(tick_units, tick_scale);
        let step = Decimal::new(step_units, step_scale);
        let price = Decimal::from(price_ticks) * tick;
        let quantity = Decimal::from(quantity_steps) * step;
        let notional = price * quantity;
        let form = SpotOrderForm {
            side: Some(side.to_owned()),
            order_type: Some(if stop { "stop_limit" } else { "limit" }.to_owned()),
            price: Some(price.normalize().to_string()),
            trigger_price: Some((Decimal::from(trigger_ticks) * tick).normalize().to_string()),
            quantity: Some(quantity.normalize().to_string()),
            quote_amount: None,
            tick_size: tick.to_string(),
            step_size: step.to_string(),
            min_notional: notional.to_string(),
            last_price: None,
            available_base: Some(quantity.to_string()),
            available_quote: Some(notional.to_string()),
        };
        prop_assert_eq!(validate_spot_order(&form), Ok(vec![]));
    }
}
