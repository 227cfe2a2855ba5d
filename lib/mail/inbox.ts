// An address as the inbox that receives it sees it. Mail providers ignore
// a "+tag" in the local part, and Gmail ignores dots in it too (and
// googlemail.com is gmail.com): victim+1@gmail.com and v.ictim@gmail.com
// land in victim@gmail.com's inbox. Budgets and caps on mail to an address
// anyone can type count by this, or each spelling would get its own.

const GMAIL = new Set(["gmail.com", "googlemail.com"]);

/** "v.ictim+alerts@GoogleMail.com" → "victim@gmail.com"; case is ignored everywhere. */
export function inboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const untagged = local.split("+")[0]!;
  if (untagged) local = untagged;
  if (GMAIL.has(domain)) {
    domain = "gmail.com";
    local = local.replaceAll(".", "") || local;
  }
  return `${local}@${domain}`;
}
