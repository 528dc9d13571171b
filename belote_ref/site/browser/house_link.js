// The address of a page opened under a house rule: `#house=` followed by the house rule's YAML,
// UTF-8, in base64url without padding (RFC 4648 §5). The same format is written by
// belote_ref/site/check_house_rule.py and read by every interactive page.
export const HOUSE_PARAMETER = "house";

/** base64url (no padding) of `text` encoded as UTF-8. */
export function encodeHouse(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The text of a base64url value; throws an Error when it is not base64url of UTF-8 text. */
export function decodeHouse(value) {
  if (!/^[A-Za-z0-9_-]*$/.test(value)) throw new Error("the house rule in the address is not base64url");
  const padded = value.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((value.length + 3) % 4);
  let binary;
  try {
    binary = atob(padded);
  } catch {
    throw new Error("the house rule in the address is not base64url");
  }
  const bytes = Uint8Array.from(binary, c => c.charCodeAt(0));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error("the house rule in the address is not UTF-8 text");
  }
}

/** The fragment (without `#`) that carries `text`. */
export function houseFragment(text) { return `${HOUSE_PARAMETER}=${encodeHouse(text)}`; }

/** The house rule in an address's fragment (`location.hash`), or null when it has none. */
export function houseFromHash(hash) {
  const fragment = hash.startsWith("#") ? hash.slice(1) : hash;
  if (!fragment.startsWith(`${HOUSE_PARAMETER}=`)) return null;
  return decodeHouse(fragment.slice(HOUSE_PARAMETER.length + 1));
}
