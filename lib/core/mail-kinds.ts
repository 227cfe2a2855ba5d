// What an email is for: the label it is counted under (petstore_emails_total,
// lib/metrics.ts), never who it is to. Apart from the mailer so the metrics
// can name every kind without importing what sends mail.
export const MAIL_KINDS = [
  "application_link",
  "application_received",
  "application_decision",
  "staff_digest",
  "alert_confirmation",
  "alert_matches",
  "alert_renewal",
  "foster_link",
  "foster_application",
  "foster_decision",
  "foster_note",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
