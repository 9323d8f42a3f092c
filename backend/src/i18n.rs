//! The languages of the product and the backend's own messages in each of them.
//!
//! A request's language comes from the `lang` header, else `language`, else `Accept-Language`
//! (see [`Lang::from_headers`]); [`with_lang`] makes it the language of everything the request runs,
//! so services and error handlers call [`t`] without passing it around.

use std::{collections::HashMap, future::Future, sync::OnceLock};

/// One of the 14 languages of the product (spec section 1). English is the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English (default).
    #[default]
    En,
    /// Japanese.
    Ja,
    /// Korean.
    Ko,
    /// Chinese, simplified.
    ZhCn,
    /// Chinese, traditional.
    ZhTw,
    /// Portuguese.
    Pt,
    /// Vietnamese.
    Vi,
    /// Thai.
    Th,
    /// Spanish.
    Es,
    /// French.
    Fr,
    /// Russian.
    Ru,
    /// German.
    De,
    /// Italian.
    It,
    /// Lithuanian.
    Lt,
}

/// Every language, in the order the language switcher lists them.
pub const ALL_LANGS: [Lang; 14] = [
    Lang::En,
    Lang::ZhCn,
    Lang::ZhTw,
    Lang::Ja,
    Lang::Ko,
    Lang::Vi,
    Lang::Th,
    Lang::Es,
    Lang::Pt,
    Lang::Fr,
    Lang::De,
    Lang::It,
    Lang::Ru,
    Lang::Lt,
];

/// Declares [`Msg`], its keys and the list of every message in one place.
macro_rules! messages {
    ($($(#[doc = $doc:literal])* $variant:ident => $key:literal,)*) => {
        /// A backend message, by key; the texts live in `backend/locales/**/<code>.json`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Msg {
            $($(#[doc = $doc])* $variant,)*
            /// A broken input rule of wasm-core, by its violation code (`password_format`, …).
            Rule(&'static str),
        }

        impl Msg {
            /// The key of this message in the locale files.
            pub fn key(self) -> &'static str {
                match self {
                    $(Msg::$variant => $key,)*
                    Msg::Rule(code) => code,
                }
            }
        }

        /// Every message other than the rule messages (for the locale tests).
        pub const ALL_MSGS: &[Msg] = &[$(Msg::$variant,)*];
    };
}

messages! {
    /// The call succeeded.
    Success => "success",
    /// No such path or object.
    NotFound => "not_found",
    /// The path exists, the method does not.
    MethodNotAllowed => "method_not_allowed",
    /// The body is not JSON at all.
    MalformedJson => "malformed_json",
    /// A field has a value of the wrong type or shape (`{field}`).
    InvalidField => "invalid_field",
    /// A required field is missing (`{field}`).
    MissingField => "missing_field",
    /// A field the call does not know (`{field}`).
    UnknownField => "unknown_field",
    /// The body is JSON but not acceptable, without a single field to blame.
    InvalidBody => "invalid_body",
    /// The body is not declared as JSON.
    UnsupportedMediaType => "unsupported_media_type",
    /// The body exceeds the size limit.
    PayloadTooLarge => "payload_too_large",
    /// Something failed on the server.
    InternalError => "internal_error",
    /// The server could not answer now (its database is saturated); nothing was done.
    ServiceBusy => "service_busy",
    /// The session is missing, expired or revoked.
    Unauthorized => "unauthorized",
    /// A live-channel subscription names no known channel (`{channel}`).
    UnknownChannel => "unknown_channel",
    /// A live-channel subscription names no listed pair (`{symbol}`).
    UnknownSymbol => "unknown_symbol",
    /// A kline request names no known interval (`{interval}`).
    UnknownInterval => "unknown_interval",
    /// A live-channel message is not understood.
    BadMessage => "bad_message",
    /// A live-channel client fell too far behind and is disconnected.
    TooSlow => "too_slow",

    // Accounts and sessions (texts in locales/account/).
    /// Wrong account or password, without saying which (no account enumeration).
    InvalidCredentials => "invalid_credentials",
    /// Neither an e-mail address nor a phone number was given.
    AccountRequired => "account_required",
    /// The verification code is wrong, used or expired.
    InvalidCode => "invalid_code",
    /// Rate limit hit (`{seconds}` until the next try).
    TooManyRequests => "too_many_requests",
    /// The invitation code belongs to nobody.
    InvalidInviteCode => "invalid_invite_code",
    /// The current (old) password is wrong.
    WrongPassword => "wrong_password",
    /// The fund password is wrong.
    WrongFundPassword => "wrong_fund_password",
    /// The call needs a fund password and none is set.
    FundPasswordNotSet => "fund_password_not_set",
    /// The fund password is set already; changing it needs the old one.
    FundPasswordAlreadySet => "fund_password_already_set",
    /// A fund password equal to the login password.
    FundPasswordSameAsLogin => "fund_password_same_as_login",
    /// A login password equal to the fund password.
    LoginPasswordSameAsFund => "login_password_same_as_fund",
    /// The account had too many failed sign-ins: the next needs a code sent to it.
    LoginVerificationRequired => "login_verification_required",
    /// A sensitive change needs the password or a TOTP code first.
    ReauthRequired => "reauth_required",
    /// The authenticator code is wrong or was used before.
    InvalidTotp => "invalid_totp",
    /// The authenticator is bound already.
    TotpAlreadyBound => "totp_already_bound",
    /// No authenticator is bound.
    TotpNotBound => "totp_not_bound",
    /// The e-mail address or phone is used by another account.
    ContactTaken => "contact_taken",
    /// Registering an address that has an account already.
    AccountAlreadyRegistered => "account_already_registered",
    /// The anti-phishing code must be 4 to 20 letters or digits.
    AntiCodeFormat => "anti_code_format",
    /// The caller lacks the role for this call.
    Forbidden => "forbidden",
    /// The account is frozen by an operator: no login (`account_frozen`).
    AccountFrozen => "account_frozen",
    /// No account with this id (operator calls).
    AccountNotFound => "account_not_found",
    /// Operators' accounts are not frozen through the operator calls.
    OperatorNotFreezable => "operator_not_freezable",
    /// An operator froze an account.
    AccountFrozenDone => "account_frozen_done",
    /// An operator unfroze an account.
    AccountUnfrozen => "account_unfrozen",
    /// At most `{max}` API keys.
    ApiKeyLimit => "api_key_limit",
    /// Not an IP address (`{value}`).
    InvalidIp => "invalid_ip",
    /// Unknown API key permission (`{value}`).
    InvalidPermission => "invalid_permission",
    /// A code was sent.
    CodeSent => "code_sent",
    /// Logged in.
    LoggedIn => "logged_in",
    /// Registered; log in now.
    Registered => "registered",
    /// The password changed; log in again.
    PasswordChanged => "password_changed",
    /// Bound.
    Bound => "bound",
    /// Submitted.
    Submitted => "submitted",
    /// Subject of a verification-code e-mail (`{site}`).
    MailCodeSubject => "mail_code_subject",
    /// Body of a verification-code message (`{code}`, `{minutes}`).
    MailCodeBody => "mail_code_body",
    /// Subject of the notice that an address is registered already (`{site}`).
    MailAlreadyRegisteredSubject => "mail_already_registered_subject",
    /// Body of that notice.
    MailAlreadyRegisteredBody => "mail_already_registered_body",
    /// The anti-phishing line of every e-mail (`{antiCode}`).
    MailAntiCodeLine => "mail_anti_code_line",
    /// Body of a security notice: a new login (`{device}`, `{ip}`).
    MailNewLoginBody => "mail_new_login_body",
    /// Text messages cannot be sent by this deployment.
    SmsUnavailable => "sms_unavailable",
    /// The account has 2FA on and the login needs the authenticator code.
    TotpRequired => "totp_required",

    // Security settings, member area (new texts in locales/security/).
    /// The login password or authenticator code was confirmed for sensitive changes.
    IdentityConfirmed => "identity_confirmed",
    /// The account has no e-mail address to send a code to.
    EmailNotBound => "email_not_bound",
    /// The act needs the security code sent to the user's e-mail address or phone.
    SecurityCodeRequired => "security_code_required",
    /// The account has no phone number to send a code to.
    PhoneNotBound => "phone_not_bound",
    /// An API key allows at most `{max}` IP addresses.
    TooManyIps => "too_many_ips",
    /// The authenticator was removed (2FA off).
    TotpUnbound => "totp_unbound",
    /// The fund password was saved.
    FundPasswordSaved => "fund_password_saved",
    // -- end of security messages --

    // Identity, bank card and files (texts in locales/kyc/).
    /// Basic identity must pass before advanced is accepted.
    KycBasicRequired => "kyc_basic_required",
    /// A submission of this level is under review.
    KycUnderReview => "kyc_under_review",
    /// This level has passed already.
    KycAlreadyPassed => "kyc_already_passed",
    /// The submission was reviewed already.
    KycAlreadyReviewed => "kyc_already_reviewed",
    /// A rejection needs a reason.
    KycReasonRequired => "kyc_reason_required",
    /// A bank card is bound and cannot be changed.
    BankCardBound => "bank_card_bound",
    /// Only JPEG, PNG, WebP or PDF.
    UnsupportedFileType => "unsupported_file_type",
    /// The file is larger than `{max}` MB.
    FileTooLarge => "file_too_large",
    /// No file was sent.
    FileRequired => "file_required",
    /// A signed link is expired or forged.
    LinkExpired => "link_expired",
    /// An upload with an image's first bytes that does not decode as that image.
    ImageUnreadable => "image_unreadable",
    /// An image beyond `{max}` pixels a side or `{megapixels}` megapixels.
    ImageTooManyPixels => "image_too_many_pixels",
    /// A PDF with scripts, actions, attachments or encryption.
    PdfActiveContent => "pdf_active_content",
    // Funds and the ledger (texts in locales/funds/).
    /// No listed asset has this name (`{coin}`).
    UnknownCoin => "unknown_coin",
    /// A transfer between the same two buckets.
    SameBucket => "same_bucket",
    /// A transfer to oneself.
    SelfTransfer => "self_transfer",
    /// No account matches the recipient.
    RecipientNotFound => "recipient_not_found",
    /// The `Idempotency-Key` was used for another request.
    IdempotencyKeyReused => "idempotency_key_reused",
    /// The `Idempotency-Key` header is malformed.
    InvalidIdempotencyKey => "invalid_idempotency_key",
    /// The ledger kept losing races; try again.
    LedgerBusy => "ledger_busy",
    /// A transfer went through.
    Transferred => "transferred",
    /// A conversion between one asset and itself.
    SameCoin => "same_coin",
    /// An asset has no recent price (`{coin}`).
    PriceUnavailable => "price_unavailable",
    /// The amount is too small to convert.
    AmountTooSmall => "amount_too_small",
    /// A quote that is forged, altered or someone else's.
    InvalidQuote => "invalid_quote",
    /// A quote past its expiry.
    QuoteExpired => "quote_expired",
    /// A conversion went through.
    Exchanged => "exchanged",
    /// A conversion worth less than the minimum (`{min}` USDT).
    ConvertBelowMinimum => "convert_below_minimum",
    /// A conversion worth more than the maximum (`{max}` USDT).
    ConvertAboveMaximum => "convert_above_maximum",
    /// A conversion past the daily limit (`{limit}` USDT, `{left}` left today).
    ConvertDailyLimit => "convert_daily_limit",
    /// The book or the market maker cannot fill the amount now.
    ConvertLiquidity => "convert_liquidity",

    // Uploads, identity review, operators (new texts in locales/files/).
    /// A file was uploaded.
    Uploaded => "uploaded",
    /// An operator's review was saved.
    Reviewed => "reviewed",
    // -- end of files messages --

    // Deposits, withdrawals and their review (texts in locales/payments/).
    /// The deposit or withdrawal was reviewed already (409).
    PaymentAlreadyReviewed => "payment_already_reviewed",
    /// Failing a deposit or withdrawal needs a reason.
    RejectReasonRequired => "reject_reason_required",
    /// Passing a withdrawal needs the network's transaction hash.
    TxHashRequired => "tx_hash_required",
    /// The transaction hash does not have the form of a transaction id on `{network}`.
    InvalidTxHash => "invalid_tx_hash",
    /// A withdrawal to one of the platform's own deposit addresses.
    WithdrawToPlatformAddress => "withdraw_to_platform_address",
    /// The payment screenshot is not a JPEG, PNG or WebP upload.
    ScreenshotNotImage => "screenshot_not_image",
    /// The sealed withdrawal request does not open with the session's key, or is not the expected JSON.
    WithdrawalPayloadInvalid => "withdrawal_payload_invalid",
    /// A deposit was submitted for review.
    DepositSubmitted => "deposit_submitted",
    /// A withdrawal was submitted for review.
    WithdrawalSubmitted => "withdrawal_submitted",
    /// No deposit or withdrawal channel for the coin (`{coin}`).
    NoFundingChannel => "no_funding_channel",
    // -- end of payments messages --

    // Spot trading (texts in locales/trading/).
    /// The pair is not listed for spot trading (`{symbol}`).
    SpotPairUnavailable => "spot_pair_unavailable",
    /// A fill-or-kill order cannot fill completely at once; nothing was executed.
    FokUnfillable => "fok_unfillable",
    /// A post-only order would have taken liquidity; nothing was executed.
    PostOnlyWouldTake => "post_only_would_take",
    /// A market order found nothing to execute against.
    NoLiquidity => "no_liquidity",
    /// No such order of this user.
    OrderNotFound => "order_not_found",
    /// The order is filled or cancelled already.
    OrderNotOpen => "order_not_open",
    /// The trading engine could not take the order now; nothing was done.
    TradingBusy => "trading_busy",
    /// An order was accepted.
    OrderPlaced => "order_placed",
    /// An order was cancelled.
    OrderCancelled => "order_cancelled",
    // -- end of trading messages --

    // Seconds contracts (texts in locales/seconds/).
    /// The operator switched seconds contracts off for this deployment.
    SecondsDisabled => "seconds_disabled",
    /// The pair is not offered for seconds contracts (`{symbol}`).
    SecondsSymbolUnavailable => "seconds_symbol_unavailable",
    /// The period is not offered (`{seconds}`).
    SecondsPeriodUnavailable => "seconds_period_unavailable",
    /// A seconds contract was accepted.
    SecondsOrderPlaced => "seconds_order_placed",
    // Futures (texts in locales/futures/).
    /// The pair is not traded as a USDT-M perpetual (`{symbol}`).
    FuturesSymbolUnavailable => "futures_symbol_unavailable",
    /// A take-profit price on the wrong side of the mark price (`{mark}`).
    TakeProfitWrongSide => "take_profit_wrong_side",
    /// A stop-loss price on the wrong side of the mark price (`{mark}`).
    StopLossWrongSide => "stop_loss_wrong_side",
    /// The call needs an open position in the symbol.
    NoOpenPosition => "no_open_position",
    /// The margin mode cannot change while a position or an order is open in the symbol.
    MarginModeLocked => "margin_mode_locked",
    /// Only an isolated position has its own margin to adjust.
    NotIsolatedMargin => "not_isolated_margin",
    /// A reduce-only or close-position order that would reduce nothing.
    ReduceOnlyRejected => "reduce_only_rejected",
    /// A stop order's trigger equal to the mark price now.
    StopTriggerAtMark => "stop_trigger_at_mark",
    // -- end of futures messages --

    // Earn products (texts in locales/earn/; crate::earn).
    /// No such earn product (or not offered to the caller).
    EarnProductNotFound => "earn_product_not_found",
    /// No such earn position of the caller.
    EarnPositionNotFound => "earn_position_not_found",
    /// A subscription below the product's minimum (`{min}`, `{coin}`).
    EarnBelowMinimum => "earn_below_minimum",
    /// A subscription above the product's maximum (`{max}`, `{coin}`).
    EarnAboveMaximum => "earn_above_maximum",
    /// The product's quota cannot take the amount (`{remaining}`, `{coin}`).
    EarnQuotaExhausted => "earn_quota_exhausted",
    /// The user's own limit on the product cannot take the amount (`{remaining}`, `{coin}`).
    EarnUserLimit => "earn_user_limit",
    /// The user made as many subscriptions of the product as allowed (`{limit}`).
    EarnSubscriptionLimit => "earn_subscription_limit",
    /// Subscriptions have not opened yet.
    EarnNotStarted => "earn_not_started",
    /// Subscriptions have closed.
    EarnEnded => "earn_ended",
    /// The operator paused subscriptions.
    EarnPaused => "earn_paused",
    /// A Member Zone product: VIP users only.
    EarnVipOnly => "earn_vip_only",
    /// The product does not allow early redemption.
    EarnEarlyRedemptionForbidden => "earn_early_redemption_forbidden",
    /// The position has already completed or been redeemed.
    EarnPositionClosed => "earn_position_closed",
    /// A subscription was accepted.
    EarnSubscribed => "earn_subscribed",
    /// A position was redeemed.
    EarnRedeemed => "earn_redeemed",
    /// An operator's change of a product was saved.
    EarnProductSaved => "earn_product_saved",
    // -- end of earn messages --

    // Security and money e-mails (texts in locales/notify/; crate::notify).
    /// Subject of the notice of a login from a new device or IP (`{site}`).
    NoticeNewLoginSubject => "notice_new_login_subject",
    /// Body of the notice of a login from a new device or IP (`{time}`, `{device}`, `{ip}`).
    NoticeNewLoginBody => "notice_new_login_body",
    /// Subject of the notice of 2FA turned on (`{site}`).
    NoticeTotpEnabledSubject => "notice_totp_enabled_subject",
    /// Body of the notice of 2FA turned on (`{time}`).
    NoticeTotpEnabledBody => "notice_totp_enabled_body",
    /// Subject of the notice of 2FA turned off (`{site}`).
    NoticeTotpDisabledSubject => "notice_totp_disabled_subject",
    /// Body of the notice of 2FA turned off (`{time}`).
    NoticeTotpDisabledBody => "notice_totp_disabled_body",
    /// Subject of the notice of the fund password set (`{site}`).
    NoticeFundPasswordSetSubject => "notice_fund_password_set_subject",
    /// Body of the notice of the fund password set (`{time}`).
    NoticeFundPasswordSetBody => "notice_fund_password_set_body",
    /// Subject of the notice of the fund password changed (`{site}`).
    NoticeFundPasswordChangedSubject => "notice_fund_password_changed_subject",
    /// Body of the notice of the fund password changed (`{time}`).
    NoticeFundPasswordChangedBody => "notice_fund_password_changed_body",
    /// Subject of the notice of the login password changed (`{site}`).
    NoticeLoginPasswordChangedSubject => "notice_login_password_changed_subject",
    /// Body of the notice of the login password changed (`{time}`).
    NoticeLoginPasswordChangedBody => "notice_login_password_changed_body",
    /// Subject of the notice of identity verification passed (`{site}`).
    NoticeKycApprovedSubject => "notice_kyc_approved_subject",
    /// Body of the notice of identity verification passed.
    NoticeKycApprovedBody => "notice_kyc_approved_body",
    /// Subject of the notice of identity verification failed (`{site}`).
    NoticeKycRejectedSubject => "notice_kyc_rejected_subject",
    /// Body of the notice of identity verification failed (`{reason}`).
    NoticeKycRejectedBody => "notice_kyc_rejected_body",
    /// Subject of the notice of a deposit credited (`{site}`).
    NoticeDepositCreditedSubject => "notice_deposit_credited_subject",
    /// Body of the notice of a deposit credited (`{amount}`, `{coin}`, `{network}`, `{time}`).
    NoticeDepositCreditedBody => "notice_deposit_credited_body",
    /// Subject of the notice of a withdrawal submitted (`{site}`).
    NoticeWithdrawalSubmittedSubject => "notice_withdrawal_submitted_subject",
    /// Body of the notice of a withdrawal submitted (`{amount}`, `{coin}`, `{network}`, `{address}`, `{time}`).
    NoticeWithdrawalSubmittedBody => "notice_withdrawal_submitted_body",
    /// Subject of the notice of a withdrawal sent (`{site}`).
    NoticeWithdrawalSentSubject => "notice_withdrawal_sent_subject",
    /// Body of the notice of a withdrawal sent (`{amount}`, `{coin}`, `{network}`, `{address}`, `{txHash}`).
    NoticeWithdrawalSentBody => "notice_withdrawal_sent_body",
    /// Subject of the notice of a withdrawal rejected (`{site}`).
    NoticeWithdrawalRejectedSubject => "notice_withdrawal_rejected_subject",
    /// Body of the notice of a withdrawal rejected (`{amount}`, `{coin}`, `{network}`, `{reason}`).
    NoticeWithdrawalRejectedBody => "notice_withdrawal_rejected_body",
    /// The subject of a loan approved.
    NoticeLoanApprovedSubject => "notice_loan_approved_subject",
    /// The body of a loan approved (`{loanId}`, `{amount}`, `{coin}`, `{time}`: the last due time).
    NoticeLoanApprovedBody => "notice_loan_approved_body",
    /// The subject of a loan application rejected.
    NoticeLoanRejectedSubject => "notice_loan_rejected_subject",
    /// The body of a loan application rejected (`{loanId}`, `{amount}`, `{coin}`, `{time}`,
    /// `{reason}`).
    NoticeLoanRejectedBody => "notice_loan_rejected_body",
    /// The subject of a loan instalment due soon.
    NoticeLoanDueSoonSubject => "notice_loan_due_soon_subject",
    /// The body of a loan instalment due soon (`{loanId}`, `{amount}`, `{coin}`, `{time}`).
    NoticeLoanDueSoonBody => "notice_loan_due_soon_body",
    /// The subject of a loan instalment overdue.
    NoticeLoanOverdueSubject => "notice_loan_overdue_subject",
    /// The body of a loan instalment overdue (`{loanId}`, `{amount}`, `{coin}`, `{time}`,
    /// `{graceDays}`, `{penalty}`: percent a day).
    NoticeLoanOverdueBody => "notice_loan_overdue_body",
    /// Subject of the notice of a wallet linked (`{site}`).
    NoticeWalletLinkedSubject => "notice_wallet_linked_subject",
    /// Body of the notice of a wallet linked (`{address}`, `{time}`).
    NoticeWalletLinkedBody => "notice_wallet_linked_body",
    /// Subject of the notice of a wallet unlinked (`{site}`).
    NoticeWalletUnlinkedSubject => "notice_wallet_unlinked_subject",
    /// Body of the notice of a wallet unlinked (`{address}`, `{time}`).
    NoticeWalletUnlinkedBody => "notice_wallet_unlinked_body",
    // -- end of notify messages --

    // The content store (texts in locales/content/; crate::content).
    /// No published announcement, page, help entry or article has this id.
    ContentNotFound => "content_not_found",
    /// `cgform-api` names no known form (`{form}`).
    UnknownForm => "unknown_form",
    /// `getDictItems` names no known dictionary (`{code}`).
    UnknownDict => "unknown_dict",
    /// A title or body is empty (the spec's 'please enter content').
    ContentRequired => "content_required",
    /// Another entry of the kind has this slug.
    SlugTaken => "slug_taken",
    /// The parent, topic or category named does not exist or is of the wrong kind.
    UnknownParent => "unknown_parent",
    /// A Markdown image names no operator's upload (`{id}`).
    ImageNotUploaded => "image_not_uploaded",
    /// A content text was saved.
    ContentSaved => "content_saved",
    /// A translation was published.
    ContentPublished => "content_published",
    /// A translation was taken back to draft.
    ContentUnpublished => "content_unpublished",
    /// An entry or translation was deleted.
    ContentDeleted => "content_deleted",
    /// Help-centre category: account.
    HelpCategoryAccount => "help_category_account",
    /// Help-centre category: deposits and withdrawals.
    HelpCategoryFunds => "help_category_funds",
    /// Help-centre category: trading.
    HelpCategoryTrading => "help_category_trading",
    /// Help-centre category: security.
    HelpCategorySecurity => "help_category_security",
    /// Help-centre category: contacting support.
    HelpCategorySupport => "help_category_support",
    // Crypto loans (locales/loans/).
    /// The loan product is not offered now.
    LoanProductClosed => "loan_product_closed",
    /// The loan rules were not accepted.
    LoanRulesNotAccepted => "loan_rules_not_accepted",
    /// The amount is outside what the caller may borrow (`{min}`, `{max}`, `{coin}`).
    LoanAmountOutOfRange => "loan_amount_out_of_range",
    /// The cycle is not offered (`{cycle}`).
    LoanCycleNotOffered => "loan_cycle_not_offered",
    /// The repayment way is not offered (for this cycle).
    LoanWayNotOffered => "loan_way_not_offered",
    /// The product needs a higher identity level (`{level}`).
    LoanKycRequired => "loan_kyc_required",
    /// The caller's credit score is below the product's (`{score}`, `{required}`).
    LoanCreditTooLow => "loan_credit_too_low",
    /// An identity image is missing (`{field}`).
    LoanDocumentRequired => "loan_document_required",
    /// An identity image is not an image (`{field}`).
    LoanDocumentNotImage => "loan_document_not_image",
    /// The advanced identity has no images to reuse.
    LoanKycDocumentsMissing => "loan_kyc_documents_missing",
    /// An application for the product is already pending.
    LoanApplicationPending => "loan_application_pending",
    /// The application was submitted.
    LoanApplied => "loan_applied",
    /// The application was decided already.
    LoanAlreadyReviewed => "loan_already_reviewed",
    /// Rejecting needs a reason.
    LoanReasonRequired => "loan_reason_required",
    /// The lending pool does not hold the principal (`{available}`, `{coin}`).
    LoanPoolInsufficient => "loan_pool_insufficient",
    /// Money was put into the lending pool.
    LoanPoolFunded => "loan_pool_funded",
    /// The loan is settled: nothing is owed.
    LoanSettled => "loan_settled",
    /// The repayment names more than is owed (`{owed}`).
    LoanRepayAboveOwed => "loan_repay_above_owed",
    /// The repayment names less than it costs now (`{owed}`).
    LoanRepayAmountChanged => "loan_repay_amount_changed",
    /// The loan changed meanwhile; look again.
    LoanChanged => "loan_changed",
    /// The repayment was made.
    LoanRepaid => "loan_repaid",
    /// The `maturity` repayment way's name.
    RepayWayMaturity => "repay_way_maturity",
    /// The `interest_daily` repayment way's name.
    RepayWayInterestDaily => "repay_way_interest_daily",
    /// The `equal_instalments` repayment way's name.
    RepayWayEqualInstalments => "repay_way_equal_instalments",
    // Referral programme and agents (texts in locales/referral/).
    /// Nobody may invite themselves.
    InviteSelf => "invite_self",
    /// The user has an inviter already (bound at registration or before).
    InviterAlreadyBound => "inviter_already_bound",
    /// An invitation code may be bound only within `{days}` days of registration.
    InviteWindowClosed => "invite_window_closed",
    /// An invitation code may be bound only before the first trade.
    InviteAfterTrade => "invite_after_trade",
    /// The code's owner was invited (directly or not) by this user.
    InviteCycle => "invite_cycle",
    /// An invitation code was bound.
    InviterBound => "inviter_bound",
    /// Agent rates are each at least 0 and together below 1 (100 %).
    AgentRatesInvalid => "agent_rates_invalid",
    /// The user is not an agent.
    NotAnAgent => "not_an_agent",
    /// An agent's rates were saved.
    AgentSaved => "agent_saved",
    // -- end of referral messages --
    /// A visitor opens a support conversation without an e-mail.
    SupportEmailRequired => "support_email_required",
    /// A support message without text or image.
    SupportMessageEmpty => "support_message_empty",
    /// A support message longer than `{max}` characters.
    SupportMessageTooLong => "support_message_too_long",
    /// A support attachment that is not an image.
    SupportAttachmentNotImage => "support_attachment_not_image",
    /// A visitor tries to attach a file.
    SupportAttachmentLogin => "support_attachment_login",
    /// The support conversation is closed.
    SupportConversationClosed => "support_conversation_closed",
    /// No such support conversation (or not the caller's).
    SupportConversationNotFound => "support_conversation_not_found",
    /// Another operator answers this conversation.
    SupportAssignedElsewhere => "support_assigned_elsewhere",
    /// The away e-mail's subject (`{site}`).
    SupportReplySubject => "support_reply_subject",
    /// The away e-mail's body (`{site}`, `{excerpt}`).
    SupportReplyBody => "support_reply_body",
    // -- end of support messages --
    /// A merchant application's field is empty or too long.
    MerchantFormInvalid => "merchant_form_invalid",
    /// The user has a pending application or is a merchant already.
    MerchantApplicationOpen => "merchant_application_open",
    /// A merchant application was received.
    MerchantApplied => "merchant_applied",
    /// The application was decided already (by another operator, perhaps).
    MerchantDecided => "merchant_decided",
    /// A merchant rate is at least 0 and below 1.
    MerchantRateInvalid => "merchant_rate_invalid",
    /// The user is not an approved merchant.
    NotAMerchant => "not_a_merchant",
    // -- end of merchant messages --

    // Wallets, Sign-In with Ethereum (texts in locales/wallet/).
    /// Not an Ethereum address (`0x` and 40 hex digits, mixed case only as its checksum).
    WalletAddressInvalid => "wallet_address_invalid",
    /// The signed message's challenge is unknown, used, expired or another's.
    WalletChallengeExpired => "wallet_challenge_expired",
    /// The signed text is not the message this server issued.
    WalletMessageAltered => "wallet_message_altered",
    /// The signature is malformed or not the wallet's the message names.
    WalletSignatureInvalid => "wallet_signature_invalid",
    /// No account is linked to the signing wallet.
    WalletNotLinked => "wallet_not_linked",
    /// The wallet is linked to another account.
    WalletTaken => "wallet_taken",
    /// The wallet was linked.
    WalletLinked => "wallet_linked",
    /// The wallet was unlinked.
    WalletUnlinked => "wallet_unlinked",
    /// The statement of a sign-in message (`{site}`); one line.
    WalletStatementLogin => "wallet_statement_login",
    /// The statement of a link message (`{site}`); one line.
    WalletStatementLink => "wallet_statement_link",
    // -- end of wallet messages --
}

/// The violation codes of wasm-core's input rules, each a key in `locales/rules/`.
pub const RULE_CODES: [&str; 29] = [
    "field_required",
    "required_fields",
    "password_format",
    "password_mismatch",
    "password_unchanged",
    "email_format",
    "invalid_number",
    "leading_zero",
    "too_many_decimals",
    "number_out_of_range",
    "not_above_zero",
    "not_whole_number",
    "below_minimum",
    "above_maximum",
    "insufficient_balance",
    "unsupported_network",
    "invalid_address",
    "invalid_card_type",
    "id_number_format",
    "card_number_format",
    "swift_format",
    "phone_format",
    "too_long",
    "invalid_choice",
    "off_tick",
    "off_step",
    "below_min_notional",
    "quote_amount_not_allowed",
    "quantity_and_quote_amount",
];

impl Lang {
    /// The code used by the webapp, the `lang` header and the locale file name.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
            Lang::Ko => "ko",
            Lang::ZhCn => "zh-CN",
            Lang::ZhTw => "zh-TW",
            Lang::Pt => "pt",
            Lang::Vi => "vi",
            Lang::Th => "th",
            Lang::Es => "es",
            Lang::Fr => "fr",
            Lang::Ru => "ru",
            Lang::De => "de",
            Lang::It => "it",
            Lang::Lt => "lt",
        }
    }

    /// The language's name in itself, as a language list shows it.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ja => "日本語",
            Lang::Ko => "한국어",
            Lang::ZhCn => "简体中文",
            Lang::ZhTw => "繁體中文",
            Lang::Pt => "Português",
            Lang::Vi => "Tiếng Việt",
            Lang::Th => "ไทย",
            Lang::Es => "Español",
            Lang::Fr => "Français",
            Lang::Ru => "Русский",
            Lang::De => "Deutsch",
            Lang::It => "Italiano",
            Lang::Lt => "Lietuvių",
        }
    }

    /// Reads a language tag leniently: case, `_` or `-`, and a region are all accepted
    /// (`en-US` → English, `zh` → simplified Chinese, `zh-Hant`/`zh-HK` → traditional).
    pub fn parse(tag: &str) -> Option<Lang> {
        let tag = tag.trim().replace('_', "-").to_ascii_lowercase();
        let mut parts = tag.split('-');
        let primary = parts.next().unwrap_or_default();
        let rest: Vec<&str> = parts.collect();
        Some(match primary {
            "en" => Lang::En,
            "ja" => Lang::Ja,
            "ko" => Lang::Ko,
            "zh" => {
                if rest
                    .iter()
                    .any(|part| matches!(*part, "tw" | "hk" | "mo" | "hant"))
                {
                    Lang::ZhTw
                } else {
                    Lang::ZhCn
                }
            }
            "pt" => Lang::Pt,
            "vi" => Lang::Vi,
            "th" => Lang::Th,
            "es" => Lang::Es,
            "fr" => Lang::Fr,
            "ru" => Lang::Ru,
            "de" => Lang::De,
            "it" => Lang::It,
            "lt" => Lang::Lt,
            _ => return None,
        })
    }

    /// The language of a request: the `lang` header, else `language`, else the first language of
    /// `Accept-Language` the product has; English when none is usable.
    pub fn from_headers(header: impl Fn(&str) -> Option<String>) -> Lang {
        for name in ["lang", "language"] {
            if let Some(lang) = header(name).as_deref().and_then(Lang::parse) {
                return lang;
            }
        }
        header("accept-language")
            .and_then(|value| {
                value
                    .split(',')
                    .filter_map(|part| Lang::parse(part.split(';').next().unwrap_or_default()))
                    .next()
            })
            .unwrap_or_default()
    }
}

type Catalog = HashMap<&'static str, HashMap<String, String>>;

/// The locale files, compiled into the binary: per language, the core file and one file per area.
macro_rules! locale_files {
    ($($code:literal),*) => {
        [$(($code, &[
            include_str!(concat!("../locales/", $code, ".json")),
            include_str!(concat!("../locales/account/", $code, ".json")),
            include_str!(concat!("../locales/account_status/", $code, ".json")),
            include_str!(concat!("../locales/kyc/", $code, ".json")),
            include_str!(concat!("../locales/rules/", $code, ".json")),
            include_str!(concat!("../locales/security/", $code, ".json")),
            include_str!(concat!("../locales/files/", $code, ".json")),
            include_str!(concat!("../locales/funds/", $code, ".json")),
            include_str!(concat!("../locales/payments/", $code, ".json")),
            include_str!(concat!("../locales/convert/", $code, ".json")),
            include_str!(concat!("../locales/trading/", $code, ".json")),
            include_str!(concat!("../locales/seconds/", $code, ".json")),
            include_str!(concat!("../locales/futures/", $code, ".json")),
            include_str!(concat!("../locales/notify/", $code, ".json")),
            include_str!(concat!("../locales/content/", $code, ".json")),
            include_str!(concat!("../locales/earn/", $code, ".json")),
            include_str!(concat!("../locales/loans/", $code, ".json")),
            include_str!(concat!("../locales/referral/", $code, ".json")),
            include_str!(concat!("../locales/support/", $code, ".json")),
            include_str!(concat!("../locales/merchants/", $code, ".json")),
            include_str!(concat!("../locales/wallet/", $code, ".json")),
        ])),*]
    };
}

const LOCALE_FILES: [(&str, &[&str]); 14] = locale_files!(
    "en", "ja", "ko", "zh-CN", "zh-TW", "pt", "vi", "th", "es", "fr", "ru", "de", "it", "lt"
);

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        LOCALE_FILES
            .iter()
            .map(|(code, texts)| {
                // The files are compiled in and checked by the tests below, so a parse failure
                // here is a build defect, not a runtime condition.
                let mut messages = HashMap::new();
                for text in texts.iter() {
                    let part: HashMap<String, String> = serde_json::from_str(text)
                        .unwrap_or_else(|error| panic!("locale {code} is not valid JSON: {error}"));
                    messages.extend(part);
                }
                (*code, messages)
            })
            .collect()
    })
}

tokio::task_local! {
    static REQUEST_LANG: Lang;
}

/// Runs `future` with `lang` as the language of every message it produces.
pub async fn with_lang<F: Future>(lang: Lang, future: F) -> F::Output {
    REQUEST_LANG.scope(lang, future).await
}

/// The language of the request being served; English outside a request.
pub fn current_lang() -> Lang {
    REQUEST_LANG.try_with(|lang| *lang).unwrap_or_default()
}

/// The text of `msg` in the current request's language, with `{name}` placeholders filled.
pub fn t(msg: Msg, params: &[(&str, &str)]) -> String {
    translate(current_lang(), msg, params)
}

/// The text of `msg` in `lang`, with `{name}` placeholders filled; English when a text is missing.
pub fn translate(lang: Lang, msg: Msg, params: &[(&str, &str)]) -> String {
    let catalog = catalog();
    let template = catalog
        .get(lang.code())
        .and_then(|messages| messages.get(msg.key()))
        .or_else(|| catalog.get("en").and_then(|m| m.get(msg.key())))
        .map(String::as_str)
        .unwrap_or(msg.key());
    params
        .iter()
        .fold(template.to_owned(), |text, (name, value)| {
            text.replace(&format!("{{{name}}}"), value)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_msg() -> Vec<Msg> {
        ALL_MSGS
            .iter()
            .copied()
            .chain(RULE_CODES.iter().map(|code| Msg::Rule(code)))
            .collect()
    }

    fn placeholders(text: &str) -> Vec<&str> {
        let mut names: Vec<&str> = text
            .split('{')
            .skip(1)
            .filter_map(|part| part.split_once('}').map(|(name, _)| name))
            .collect();
        names.sort_unstable();
        names
    }

    #[test]
    fn every_locale_has_every_message_with_the_same_placeholders() {
        let catalog = catalog();
        let english = &catalog["en"];
        let all = every_msg();
        assert_eq!(english.len(), all.len(), "en has keys no Msg uses");
        for lang in ALL_LANGS {
            let messages = &catalog[lang.code()];
            let mut keys: Vec<&String> = messages.keys().collect();
            keys.sort();
            let mut expected: Vec<&String> = english.keys().collect();
            expected.sort();
            assert_eq!(
                keys,
                expected,
                "locale {} has other keys than en",
                lang.code()
            );
            for msg in &all {
                let text = &messages[msg.key()];
                assert!(
                    !text.trim().is_empty(),
                    "{}:{} is empty",
                    lang.code(),
                    msg.key()
                );
                assert_eq!(
                    placeholders(text),
                    placeholders(&english[msg.key()]),
                    "{}:{} placeholders differ",
                    lang.code(),
                    msg.key()
                );
            }
        }
    }

    #[test]
    fn non_english_locales_are_translated() {
        let catalog = catalog();
        for lang in ALL_LANGS.into_iter().filter(|l| *l != Lang::En) {
            let same: Vec<&str> = every_msg()
                .iter()
                .map(|m| m.key())
                .filter(|key| catalog[lang.code()][*key] == catalog["en"][*key])
                .collect();
            assert!(
                same.len() <= 2,
                "{} repeats English texts: {same:?}",
                lang.code()
            );
        }
    }

    #[test]
    fn tags_are_read_leniently() {
        assert_eq!(Lang::parse("en-US"), Some(Lang::En));
        assert_eq!(Lang::parse("zh_CN"), Some(Lang::ZhCn));
        assert_eq!(Lang::parse("zh"), Some(Lang::ZhCn));
        assert_eq!(Lang::parse("zh-Hant"), Some(Lang::ZhTw));
        assert_eq!(Lang::parse("ZH-tw"), Some(Lang::ZhTw));
        assert_eq!(Lang::parse("de-AT"), Some(Lang::De));
        assert_eq!(Lang::parse("xx"), None);
        for lang in ALL_LANGS {
            assert_eq!(Lang::parse(lang.code()), Some(lang));
        }
    }

    #[test]
    fn headers_are_read_in_order() {
        let headers = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            Lang::from_headers(headers(&[("lang", "de"), ("language", "fr")])),
            Lang::De
        );
        assert_eq!(
            Lang::from_headers(headers(&[("lang", "??"), ("language", "fr")])),
            Lang::Fr
        );
        assert_eq!(
            Lang::from_headers(headers(&[("accept-language", "xx, ja;q=0.8")])),
            Lang::Ja
        );
        assert_eq!(Lang::from_headers(headers(&[])), Lang::En);
    }

    #[test]
    fn placeholders_are_filled() {
        assert_eq!(
            translate(Lang::En, Msg::InvalidField, &[("field", "keyword")]),
            "Invalid value for field 'keyword'"
        );
    }

    #[tokio::test]
    async fn the_request_language_is_scoped() {
        assert_eq!(current_lang(), Lang::En);
        let text = with_lang(Lang::De, async { t(Msg::Success, &[]) }).await;
        assert_eq!(text, translate(Lang::De, Msg::Success, &[]));
        assert_eq!(current_lang(), Lang::En);
    }
}
