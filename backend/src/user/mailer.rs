//! Sends e-mail and text messages. With an SMTP URL configured, e-mail goes out through lettre;
//! in development mode without one, every message is written to the dev outbox instead
//! (`outbox_message`, read by the e2e suite through `GET /api/dev/outbox`). Production refuses to
//! start without an SMTP sender, and text messages need a provider this build does not have, so in
//! production they are refused. Every e-mail to a user with an anti-phishing code carries it.

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{Mailbox, header::ContentType},
};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, DatabaseConnection};

use crate::config::{Config, Mode};
use crate::entity::outbox_message;
use crate::refusal::{Refusal, RefusalKind};

use crate::i18n::{Msg, t};

/// Where a message goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// An e-mail address.
    Email,
    /// A phone number.
    Sms,
}

impl Channel {
    /// `email` or `sms`.
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Email => "email",
            Channel::Sms => "sms",
        }
    }
}

/// One message, already in the recipient's language.
#[derive(Debug, Clone)]
pub struct Outgoing {
    /// E-mail or SMS.
    pub channel: Channel,
    /// Address or phone.
    pub recipient: String,
    /// Subject (e-mail only; kept for the outbox).
    pub subject: String,
    /// Plain-text body.
    pub body: String,
    /// The recipient's anti-phishing code, appended to e-mails.
    pub anti_code: Option<String>,
}

/// Why the mailer could not be built.
#[derive(Debug, thiserror::Error)]
pub enum MailerError {
    /// Production mode without an SMTP URL.
    #[error("production mode needs an e-mail sender: set mail.smtp_url (EXCHANGE_SMTP_URL)")]
    NoSender,
    /// The SMTP URL or From address is malformed.
    #[error("invalid mail configuration: {0}")]
    Invalid(String),
}

/// The sender of the platform's messages.
pub struct Mailer {
    smtp: Option<(AsyncSmtpTransport<Tokio1Executor>, Mailbox)>,
    outbox: bool,
}

impl Mailer {
    /// Builds the mailer for `config`; production without SMTP is an error.
    pub fn from_config(config: &Config) -> Result<Self, MailerError> {
        let smtp = if config.mail.smtp_url.trim().is_empty() {
            None
        } else {
            let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&config.mail.smtp_url)
                .map_err(|e| MailerError::Invalid(e.to_string()))?
                .build();
            let from = if config.mail.from.trim().is_empty() {
                format!("{} <no-reply@localhost>", config.platform.site_name)
            } else {
                config.mail.from.clone()
            };
            let from: Mailbox = from
                .parse()
                .map_err(|e: lettre::address::AddressError| MailerError::Invalid(e.to_string()))?;
            Some((transport, from))
        };
        let outbox = config.mode == Mode::Development;
        if smtp.is_none() && !outbox {
            return Err(MailerError::NoSender);
        }
        Ok(Self { smtp, outbox })
    }

    /// Whether messages are kept in the dev outbox.
    pub fn has_outbox(&self) -> bool {
        self.outbox
    }

    /// Sends `message`: by SMTP when configured (e-mail), else to the dev outbox.
    pub async fn send(&self, db: &DatabaseConnection, message: Outgoing) -> Result<(), Refusal> {
        let mut body = message.body.clone();
        if message.channel == Channel::Email
            && let Some(code) = message.anti_code.as_deref()
        {
            body = format!(
                "{}\n\n{body}",
                t(Msg::MailAntiCodeLine, &[("antiCode", code)])
            );
        }
        match (&self.smtp, message.channel) {
            (Some((transport, from)), Channel::Email) => {
                let to: Mailbox = message.recipient.parse().map_err(Refusal::internal)?;
                let email = Message::builder()
                    .from(from.clone())
                    .to(to)
                    .subject(message.subject.clone())
                    .header(ContentType::TEXT_PLAIN)
                    .body(body.clone())
                    .map_err(Refusal::internal)?;
                transport.send(email).await.map_err(Refusal::internal)?;
                tracing::info!(channel = "email", "message sent by SMTP");
            }
            _ if self.outbox => {}
            _ => {
                return Err(Refusal::new(RefusalKind::Unavailable, Msg::SmsUnavailable));
            }
        }
        if self.outbox {
            outbox_message::ActiveModel {
                channel: Set(message.channel.as_str().to_owned()),
                recipient: Set(message.recipient),
                subject: Set(message.subject),
                body: Set(body),
                created_at: Set(crate::clock::now_ms()),
                ..Default::default()
            }
            .insert(db)
            .await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn production_refuses_to_start_without_a_sender() {
        let config = Config {
            mode: Mode::Production,
            ..Config::default()
        };
        assert!(matches!(
            Mailer::from_config(&config),
            Err(MailerError::NoSender)
        ));
    }

    #[test]
    fn development_without_smtp_keeps_an_outbox() {
        let mailer = Mailer::from_config(&Config::default()).unwrap();
        assert!(mailer.has_outbox());
    }

    // The SMTP pool spawns its maintenance task on the Tokio runtime.
    #[tokio::test]
    async fn production_with_smtp_has_no_outbox() {
        let mut config = Config {
            mode: Mode::Production,
            ..Config::default()
        };
        config.mail.smtp_url = "smtp://localhost:2525".into();
        config.mail.from = "Kestrel <no-reply@example.com>".into();
        let mailer = Mailer::from_config(&config).unwrap();
        assert!(!mailer.has_outbox());
    }

    #[tokio::test]
    async fn a_malformed_from_address_is_reported() {
        let mut config = Config::default();
        config.mail.smtp_url = "smtp://localhost:2525".into();
        config.mail.from = "not an address".into();
        assert!(matches!(
            Mailer::from_config(&config),
            Err(MailerError::Invalid(_))
        ));
    }
}
