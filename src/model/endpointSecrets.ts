/**
 * An endpoint URL can carry a secret: Azure's and some gateways' `?api-key=`, Google's `?key=`, a
 * proxy's `?token=`, a password in `user:pass@host`. Wherever Sprout prints or stores an endpoint (error
 * messages, the learned-adaptations record) it goes through `redactEndpoint`, which keeps what tells
 * endpoints apart (origin, path, `api-version` and other plain parameters) and replaces each secret
 * value with `[redacted]`, the same way every time, so a redacted URL still names one endpoint.
 */
const SECRET_PARAM = /^(?:x[-_]?)?(?:api[-_]?key|key|(?:access[-_]?|auth[-_]?|id[-_]?|refresh[-_]?)?token|auth|authorization|sig|signature|secret|client[-_]?secret|pass(?:word)?|pwd|code)$/i;

export const REDACTED = '[redacted]';

/** `url` with the values of secret-looking query parameters and any userinfo password redacted; text that is no URL is returned as it is. */
export function redactEndpoint(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  if (parsed.password !== '') {
    parsed.password = 'redacted';
    changed = true;
  }
  for (const name of [...new Set(parsed.searchParams.keys())]) {
    if (SECRET_PARAM.test(name)) {
      parsed.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  return changed ? parsed.toString().replace(/%5Bredacted%5D/g, REDACTED).replace(':redacted@', `:${REDACTED}@`) : url;
}

/** `text` with every occurrence of `url` replaced by its redacted form. */
export function redactEndpointIn(text: string, url: string): string {
  const shown = redactEndpoint(url);
  return shown === url || url === '' ? text : text.split(url).join(shown);
}
