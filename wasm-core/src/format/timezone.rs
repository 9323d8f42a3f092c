//! The time zone table the user picks from: the 38 UTC offsets in use, from −12:00 to +14:00, each with
//! a representative IANA zone. Offsets are standard (winter) time; times are shown at a fixed offset.

use serde::Serialize;

/// The time zone of a user who has not chosen one (UTC−05:00).
pub const DEFAULT_TIME_ZONE: &str = "America/New_York";

/// One entry of the time zone table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeZone {
    /// A representative IANA zone id with this standard offset, for example `America/New_York`.
    pub zone_id: &'static str,
    /// The offset as `±HH:MM`, for example `-05:00`; serialized as `offSetValue` (the API's spelling).
    #[serde(rename = "offSetValue")]
    pub offset_value: &'static str,
    /// The offset in minutes east of UTC, for example `-300`.
    pub offset_minutes: i32,
}

const fn zone(zone_id: &'static str, offset_value: &'static str, offset_minutes: i32) -> TimeZone {
    TimeZone {
        zone_id,
        offset_value,
        offset_minutes,
    }
}

static TIME_ZONES: [TimeZone; 38] = [
    zone("Etc/GMT+12", "-12:00", -720),
    zone("Pacific/Pago_Pago", "-11:00", -660),
    zone("Pacific/Honolulu", "-10:00", -600),
    zone("Pacific/Marquesas", "-09:30", -570),
    zone("America/Anchorage", "-09:00", -540),
    zone("America/Los_Angeles", "-08:00", -480),
    zone("America/Denver", "-07:00", -420),
    zone("America/Chicago", "-06:00", -360),
    zone(DEFAULT_TIME_ZONE, "-05:00", -300),
    zone("America/Halifax", "-04:00", -240),
    zone("America/St_Johns", "-03:30", -210),
    zone("America/Sao_Paulo", "-03:00", -180),
    zone("America/Noronha", "-02:00", -120),
    zone("Atlantic/Azores", "-01:00", -60),
    zone("Europe/London", "+00:00", 0),
    zone("Europe/Paris", "+01:00", 60),
    zone("Europe/Athens", "+02:00", 120),
    zone("Europe/Moscow", "+03:00", 180),
    zone("Asia/Tehran", "+03:30", 210),
    zone("Asia/Dubai", "+04:00", 240),
    zone("Asia/Kabul", "+04:30", 270),
    zone("Asia/Karachi", "+05:00", 300),
    zone("Asia/Kolkata", "+05:30", 330),
    zone("Asia/Kathmandu", "+05:45", 345),
    zone("Asia/Dhaka", "+06:00", 360),
    zone("Asia/Yangon", "+06:30", 390),
    zone("Asia/Bangkok", "+07:00", 420),
    zone("Asia/Shanghai", "+08:00", 480),
    zone("Australia/Eucla", "+08:45", 525),
    zone("Asia/Tokyo", "+09:00", 540),
    zone("Australia/Darwin", "+09:30", 570),
    zone("Australia/Sydney", "+10:00", 600),
    zone("Australia/Lord_Howe", "+10:30", 630),
    zone("Pacific/Noumea", "+11:00", 660),
    zone("Pacific/Auckland", "+12:00", 720),
    zone("Pacific/Chatham", "+12:45", 765),
    zone("Pacific/Tongatapu", "+13:00", 780),
    zone("Pacific/Kiritimati", "+14:00", 840),
];

/// The time zone table, ordered from UTC−12:00 to UTC+14:00.
pub fn time_zones() -> &'static [TimeZone] {
    &TIME_ZONES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_eight_ordered_offsets_from_minus_12_to_plus_14() {
        let zones = time_zones();
        assert_eq!(zones.len(), 38);
        assert_eq!(zones.first().unwrap().offset_minutes, -12 * 60);
        assert_eq!(zones.last().unwrap().offset_minutes, 14 * 60);
        assert!(
            zones
                .windows(2)
                .all(|w| w[0].offset_minutes < w[1].offset_minutes)
        );
        let mut ids: Vec<_> = zones.iter().map(|z| z.zone_id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 38);
    }

    #[test]
    fn offset_text_matches_minutes() {
        for zone in time_zones() {
            let sign = if zone.offset_minutes < 0 { '-' } else { '+' };
            let abs = zone.offset_minutes.unsigned_abs();
            let text = format!("{sign}{:02}:{:02}", abs / 60, abs % 60);
            assert_eq!(zone.offset_value, text, "{}", zone.zone_id);
        }
    }

    #[test]
    fn default_is_new_york_at_minus_five() {
        let default = time_zones()
            .iter()
            .find(|z| z.zone_id == DEFAULT_TIME_ZONE)
            .unwrap();
        assert_eq!(default.offset_value, "-05:00");
        assert_eq!(default.offset_minutes, -300);
    }

    #[test]
    fn serializes_with_api_field_names() {
        let json = serde_json::to_value(time_zones()[8]).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "zoneId": "America/New_York",
                "offSetValue": "-05:00",
                "offsetMinutes": -300
            })
        );
    }
}
