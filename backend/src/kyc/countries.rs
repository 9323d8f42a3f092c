//! The ISO 3166-1 countries and territories (all 249 alpha-2 codes) with their international
//! calling codes, for the country pickers of identity verification and phone numbers.
//!
//! Names are English; the webapp shows them in the user's language with `Intl.DisplayNames` and
//! the code. Calling codes are the E.164 country codes (the North American Numbering Plan shares
//! `+1`; territories without their own use the code their numbers are reached under, e.g.
//! Antarctica's `+672`).

/// One country or territory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Country {
    /// ISO 3166-1 alpha-2 code, upper case (`DE`).
    pub code: &'static str,
    /// International calling code with `+` (`+49`).
    pub dial_code: &'static str,
    /// English short name (`Germany`).
    pub name: &'static str,
}

const fn c(code: &'static str, dial_code: &'static str, name: &'static str) -> Country {
    Country {
        code,
        dial_code,
        name,
    }
}

/// Every ISO 3166-1 country and territory, ordered by code.
pub const COUNTRIES: [Country; 249] = [
    c("AD", "+376", "Andorra"),
    c("AE", "+971", "United Arab Emirates"),
    c("AF", "+93", "Afghanistan"),
    c("AG", "+1", "Antigua and Barbuda"),
    c("AI", "+1", "Anguilla"),
    c("AL", "+355", "Albania"),
    c("AM", "+374", "Armenia"),
    c("AO", "+244", "Angola"),
    c("AQ", "+672", "Antarctica"),
    c("AR", "+54", "Argentina"),
    c("AS", "+1", "American Samoa"),
    c("AT", "+43", "Austria"),
    c("AU", "+61", "Australia"),
    c("AW", "+297", "Aruba"),
    c("AX", "+358", "Åland Islands"),
    c("AZ", "+994", "Azerbaijan"),
    c("BA", "+387", "Bosnia and Herzegovina"),
    c("BB", "+1", "Barbados"),
    c("BD", "+880", "Bangladesh"),
    c("BE", "+32", "Belgium"),
    c("BF", "+226", "Burkina Faso"),
    c("BG", "+359", "Bulgaria"),
    c("BH", "+973", "Bahrain"),
    c("BI", "+257", "Burundi"),
    c("BJ", "+229", "Benin"),
    c("BL", "+590", "Saint Barthélemy"),
    c("BM", "+1", "Bermuda"),
    c("BN", "+673", "Brunei"),
    c("BO", "+591", "Bolivia"),
    c("BQ", "+599", "Caribbean Netherlands"),
    c("BR", "+55", "Brazil"),
    c("BS", "+1", "Bahamas"),
    c("BT", "+975", "Bhutan"),
    c("BV", "+47", "Bouvet Island"),
    c("BW", "+267", "Botswana"),
    c("BY", "+375", "Belarus"),
    c("BZ", "+501", "Belize"),
    c("CA", "+1", "Canada"),
    c("CC", "+61", "Cocos (Keeling) Islands"),
    c("CD", "+243", "Democratic Republic of the Congo"),
    c("CF", "+236", "Central African Republic"),
    c("CG", "+242", "Republic of the Congo"),
    c("CH", "+41", "Switzerland"),
    c("CI", "+225", "Côte d’Ivoire"),
    c("CK", "+682", "Cook Islands"),
    c("CL", "+56", "Chile"),
    c("CM", "+237", "Cameroon"),
    c("CN", "+86", "China"),
    c("CO", "+57", "Colombia"),
    c("CR", "+506", "Costa Rica"),
    c("CU", "+53", "Cuba"),
    c("CV", "+238", "Cape Verde"),
    c("CW", "+599", "Curaçao"),
    c("CX", "+61", "Christmas Island"),
    c("CY", "+357", "Cyprus"),
    c("CZ", "+420", "Czechia"),
    c("DE", "+49", "Germany"),
    c("DJ", "+253", "Djibouti"),
    c("DK", "+45", "Denmark"),
    c("DM", "+1", "Dominica"),
    c("DO", "+1", "Dominican Republic"),
    c("DZ", "+213", "Algeria"),
    c("EC", "+593", "Ecuador"),
    c("EE", "+372", "Estonia"),
    c("EG", "+20", "Egypt"),
    c("EH", "+212", "Western Sahara"),
    c("ER", "+291", "Eritrea"),
    c("ES", "+34", "Spain"),
    c("ET", "+251", "Ethiopia"),
    c("FI", "+358", "Finland"),
    c("FJ", "+679", "Fiji"),
    c("FK", "+500", "Falkland Islands"),
    c("FM", "+691", "Micronesia"),
    c("FO", "+298", "Faroe Islands"),
    c("FR", "+33", "France"),
    c("GA", "+241", "Gabon"),
    c("GB", "+44", "United Kingdom"),
    c("GD", "+1", "Grenada"),
    c("GE", "+995", "Georgia"),
    c("GF", "+594", "French Guiana"),
    c("GG", "+44", "Guernsey"),
    c("GH", "+233", "Ghana"),
    c("GI", "+350", "Gibraltar"),
    c("GL", "+299", "Greenland"),
    c("GM", "+220", "Gambia"),
    c("GN", "+224", "Guinea"),
    c("GP", "+590", "Guadeloupe"),
    c("GQ", "+240", "Equatorial Guinea"),
    c("GR", "+30", "Greece"),
    c("GS", "+500", "South Georgia and the South Sandwich Islands"),
    c("GT", "+502", "Guatemala"),
    c("GU", "+1", "Guam"),
    c("GW", "+245", "Guinea-Bissau"),
    c("GY", "+592", "Guyana"),
    c("HK", "+852", "Hong Kong"),
    c("HM", "+672", "Heard Island and McDonald Islands"),
    c("HN", "+504", "Honduras"),
    c("HR", "+385", "Croatia"),
    c("HT", "+509", "Haiti"),
    c("HU", "+36", "Hungary"),
    c("ID", "+62", "Indonesia"),
    c("IE", "+353", "Ireland"),
    c("IL", "+972", "Israel"),
    c("IM", "+44", "Isle of Man"),
    c("IN", "+91", "India"),
    c("IO", "+246", "British Indian Ocean Territory"),
    c("IQ", "+964", "Iraq"),
    c("IR", "+98", "Iran"),
    c("IS", "+354", "Iceland"),
    c("IT", "+39", "Italy"),
    c("JE", "+44", "Jersey"),
    c("JM", "+1", "Jamaica"),
    c("JO", "+962", "Jordan"),
    c("JP", "+81", "Japan"),
    c("KE", "+254", "Kenya"),
    c("KG", "+996", "Kyrgyzstan"),
    c("KH", "+855", "Cambodia"),
    c("KI", "+686", "Kiribati"),
    c("KM", "+269", "Comoros"),
    c("KN", "+1", "Saint Kitts and Nevis"),
    c("KP", "+850", "North Korea"),
    c("KR", "+82", "South Korea"),
    c("KW", "+965", "Kuwait"),
    c("KY", "+1", "Cayman Islands"),
    c("KZ", "+7", "Kazakhstan"),
    c("LA", "+856", "Laos"),
    c("LB", "+961", "Lebanon"),
    c("LC", "+1", "Saint Lucia"),
    c("LI", "+423", "Liechtenstein"),
    c("LK", "+94", "Sri Lanka"),
    c("LR", "+231", "Liberia"),
    c("LS", "+266", "Lesotho"),
    c("LT", "+370", "Lithuania"),
    c("LU", "+352", "Luxembourg"),
    c("LV", "+371", "Latvia"),
    c("LY", "+218", "Libya"),
    c("MA", "+212", "Morocco"),
    c("MC", "+377", "Monaco"),
    c("MD", "+373", "Moldova"),
    c("ME", "+382", "Montenegro"),
    c("MF", "+590", "Saint Martin"),
    c("MG", "+261", "Madagascar"),
    c("MH", "+692", "Marshall Islands"),
    c("MK", "+389", "North Macedonia"),
    c("ML", "+223", "Mali"),
    c("MM", "+95", "Myanmar"),
    c("MN", "+976", "Mongolia"),
    c("MO", "+853", "Macao"),
    c("MP", "+1", "Northern Mariana Islands"),
    c("MQ", "+596", "Martinique"),
    c("MR", "+222", "Mauritania"),
    c("MS", "+1", "Montserrat"),
    c("MT", "+356", "Malta"),
    c("MU", "+230", "Mauritius"),
    c("MV", "+960", "Maldives"),
    c("MW", "+265", "Malawi"),
    c("MX", "+52", "Mexico"),
    c("MY", "+60", "Malaysia"),
    c("MZ", "+258", "Mozambique"),
    c("NA", "+264", "Namibia"),
    c("NC", "+687", "New Caledonia"),
    c("NE", "+227", "Niger"),
    c("NF", "+672", "Norfolk Island"),
    c("NG", "+234", "Nigeria"),
    c("NI", "+505", "Nicaragua"),
    c("NL", "+31", "Netherlands"),
    c("NO", "+47", "Norway"),
    c("NP", "+977", "Nepal"),
    c("NR", "+674", "Nauru"),
    c("NU", "+683", "Niue"),
    c("NZ", "+64", "New Zealand"),
    c("OM", "+968", "Oman"),
    c("PA", "+507", "Panama"),
    c("PE", "+51", "Peru"),
    c("PF", "+689", "French Polynesia"),
    c("PG", "+675", "Papua New Guinea"),
    c("PH", "+63", "Philippines"),
    c("PK", "+92", "Pakistan"),
    c("PL", "+48", "Poland"),
    c("PM", "+508", "Saint Pierre and Miquelon"),
    c("PN", "+64", "Pitcairn Islands"),
    c("PR", "+1", "Puerto Rico"),
    c("PS", "+970", "Palestine"),
    c("PT", "+351", "Portugal"),
    c("PW", "+680", "Palau"),
    c("PY", "+595", "Paraguay"),
    c("QA", "+974", "Qatar"),
    c("RE", "+262", "Réunion"),
    c("RO", "+40", "Romania"),
    c("RS", "+381", "Serbia"),
    c("RU", "+7", "Russia"),
    c("RW", "+250", "Rwanda"),
    c("SA", "+966", "Saudi Arabia"),
    c("SB", "+677", "Solomon Islands"),
    c("SC", "+248", "Seychelles"),
    c("SD", "+249", "Sudan"),
    c("SE", "+46", "Sweden"),
    c("SG", "+65", "Singapore"),
    c("SH", "+290", "Saint Helena, Ascension and Tristan da Cunha"),
    c("SI", "+386", "Slovenia"),
    c("SJ", "+47", "Svalbard and Jan Mayen"),
    c("SK", "+421", "Slovakia"),
    c("SL", "+232", "Sierra Leone"),
    c("SM", "+378", "San Marino"),
    c("SN", "+221", "Senegal"),
    c("SO", "+252", "Somalia"),
    c("SR", "+597", "Suriname"),
    c("SS", "+211", "South Sudan"),
    c("ST", "+239", "São Tomé and Príncipe"),
    c("SV", "+503", "El Salvador"),
    c("SX", "+1", "Sint Maarten"),
    c("SY", "+963", "Syria"),
    c("SZ", "+268", "Eswatini"),
    c("TC", "+1", "Turks and Caicos Islands"),
    c("TD", "+235", "Chad"),
    c("TF", "+262", "French Southern Territories"),
    c("TG", "+228", "Togo"),
    c("TH", "+66", "Thailand"),
    c("TJ", "+992", "Tajikistan"),
    c("TK", "+690", "Tokelau"),
    c("TL", "+670", "Timor-Leste"),
    c("TM", "+993", "Turkmenistan"),
    c("TN", "+216", "Tunisia"),
    c("TO", "+676", "Tonga"),
    c("TR", "+90", "Türkiye"),
    c("TT", "+1", "Trinidad and Tobago"),
    c("TV", "+688", "Tuvalu"),
    c("TW", "+886", "Taiwan"),
    c("TZ", "+255", "Tanzania"),
    c("UA", "+380", "Ukraine"),
    c("UG", "+256", "Uganda"),
    c("UM", "+1", "United States Minor Outlying Islands"),
    c("US", "+1", "United States"),
    c("UY", "+598", "Uruguay"),
    c("UZ", "+998", "Uzbekistan"),
    c("VA", "+39", "Vatican City"),
    c("VC", "+1", "Saint Vincent and the Grenadines"),
    c("VE", "+58", "Venezuela"),
    c("VG", "+1", "British Virgin Islands"),
    c("VI", "+1", "U.S. Virgin Islands"),
    c("VN", "+84", "Vietnam"),
    c("VU", "+678", "Vanuatu"),
    c("WF", "+681", "Wallis and Futuna"),
    c("WS", "+685", "Samoa"),
    c("YE", "+967", "Yemen"),
    c("YT", "+262", "Mayotte"),
    c("ZA", "+27", "South Africa"),
    c("ZM", "+260", "Zambia"),
    c("ZW", "+263", "Zimbabwe"),
];

/// The country with alpha-2 `code` (any case).
pub fn find(code: &str) -> Option<&'static Country> {
    let code = code.trim().to_ascii_uppercase();
    COUNTRIES
        .binary_search_by(|country| country.code.cmp(code.as_str()))
        .ok()
        .map(|index| &COUNTRIES[index])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_entries() {
        let de = find("de").unwrap();
        assert_eq!((de.dial_code, de.name), ("+49", "Germany"));
        assert_eq!(find("US").unwrap().dial_code, "+1");
        assert_eq!(find("GB").unwrap().name, "United Kingdom");
        assert_eq!(find("CN").unwrap().dial_code, "+86");
        assert_eq!(find("JP").unwrap().dial_code, "+81");
        assert_eq!(find("LT").unwrap().dial_code, "+370");
        assert_eq!(find("KZ").unwrap().dial_code, "+7");
        assert_eq!(find("VA").unwrap().dial_code, "+39");
        assert_eq!(find("AX").unwrap().name, "Åland Islands");
        assert_eq!(find("XX"), None);
    }

    #[test]
    fn codes_are_unique_sorted_and_well_formed() {
        assert_eq!(COUNTRIES.len(), 249);
        for pair in COUNTRIES.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{} before {}",
                pair[0].code,
                pair[1].code
            );
        }
        for country in COUNTRIES {
            assert!(
                country.code.len() == 2 && country.code.bytes().all(|b| b.is_ascii_uppercase()),
                "{}",
                country.code
            );
            let digits = country.dial_code.strip_prefix('+').unwrap();
            assert!(
                (1..=3).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()),
                "{}: {}",
                country.code,
                country.dial_code
            );
            assert!(!country.name.trim().is_empty());
        }
    }
}
