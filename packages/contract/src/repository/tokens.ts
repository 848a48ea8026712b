/**
 * Provider tokens that secretlint's recommended preset does not find, each written from the
 * format its provider publishes (and gitleaks' rule for it, where the provider is vague).
 * A prefix that says what the token is makes these precise: a match is a token, not code.
 * `(?<![\w-])` keeps a pattern from starting inside a longer word. The secret is the match,
 * or its first group when the pattern has one (the `d` flag gives its place), and a third
 * element counts characters before the match that belong to it: a pattern anchored on a
 * rare suffix scans a megabyte in a few milliseconds where one starting with a character
 * class tries every position.
 */
export const TOKEN_PATTERNS: readonly (readonly [string, RegExp, number?])[] = [
  [
    'private-key',
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  ],
  ['aws-access-key-id', /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b/g],
  ['api-key', /\bsk-(?:proj-|svcacct-|admin-|ant-[a-z0-9]+-)?[A-Za-z0-9_-]{20,}/g],
  ['pgs-key', /\bpgs_(?:live|test|admin)_[0-9A-Za-z]{16,}/g],
  ['url-credentials', /(?<=\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"`]*:)[^\s@'"`/]{3,}(?=@)/gi],
  // Google Cloud API keys: `AIza` and 35 characters of [A-Za-z0-9_-].
  ['google-api-key', /(?<![\w-])AIza[\w-]{35}/g],
  // Google OAuth client secrets since 2021: `GOCSPX-` and 28 characters.
  ['google-oauth-client-secret', /(?<![\w-])GOCSPX-[\w-]{24,}/g],
  // Stripe webhook signing secrets: `whsec_` and base64 (the preset knows sk_/rk_ keys only).
  ['stripe-webhook-secret', /(?<![\w-])whsec_[A-Za-z0-9+/=]{24,}/g],
  // A signed JWT (header.payload.signature, both JSON parts base64url of `{"`).
  ['jwt', /(?<![\w-])eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*/g],
  // Hugging Face user and organisation tokens; the preset takes letters only, older ones had digits.
  ['huggingface', /(?<![\w-])(?:hf|api_org)_[A-Za-z0-9]{30,}/g],
  // PyPI API tokens: a macaroon, `pypi-AgE` then base64url (pypi.org and test.pypi.org alike).
  ['pypi', /(?<![\w-])pypi-AgE[\w-]{50,}/g],
  // DigitalOcean personal access, OAuth and refresh tokens.
  ['digitalocean', /(?<![\w-])do[opr]_v1_[0-9a-f]{64}(?![\w-])/g],
  // Mailgun: the legacy `key-` and 32 characters, and the current 32-8-8 hex form.
  ['mailgun', /(?<![\w-])key-(?=[0-9a-z]{0,31}\d)[0-9a-z]{32}(?![\w-])/g],
  ['mailgun', /(?<=(?<![\w-])[0-9a-f]{32})-[0-9a-f]{8}-[0-9a-f]{8}(?![\w-])/g, 32],
  // Azure storage and Service Bus connection strings: the key, not the account.
  ['azure-key', /\b(?:AccountKey|SharedAccessKey)\s*=\s*([A-Za-z0-9+/]{20,}={0,2})/dgi],
  // An Authorization header's credentials (`Basic`, `Bearer`, `Token`, `Bot`), in a config
  // line, a curl command or a literal; not a template (`Bearer ${token}`), which is code,
  // nor a documented placeholder (`Bearer pgs_test_…`).
  [
    'authorization-header',
    /\bAuthorization["'`]?\s*[:=]\s*["'`]?(?:Basic|Bearer|Token|Bot)[ \t]+([A-Za-z0-9._~+/-]{8,}={0,2})(?![\w.~+/=…-])/dgi,
  ],
  // Twilio API key secrets' ids are SK and 32 hex; the secret travels beside them.
  ['twilio', /(?<![\w-])SK[0-9a-f]{32}(?![\w-])/g],
  // Mailchimp API keys: 32 hex and the data centre.
  ['mailchimp', /(?<=(?<![\w-])[0-9a-f]{32})-us\d{1,2}(?![\w-])/g, 32],
  // Telegram bot tokens: the bot id, a colon, `AA` and 33 characters.
  ['telegram-bot-token', /(?<![\w:-])\d{8,10}:AA[\w-]{33}(?![\w-])/g],
  ['postman', /(?<![\w-])PMAK-[0-9a-f]{24}-[0-9a-f]{34}(?![\w-])/g],
  ['new-relic', /(?<![\w-])NRAK-[A-Z0-9]{27}(?![\w-])/g],
  ['supabase', /(?<![\w-])sbp_[0-9a-f]{40}(?![\w-])/g],
  ['square', /(?<![\w-])sq0(?:atp|csp)-[\w-]{22,}/g],
  ['atlassian', /(?<![\w-])ATATT3[\w=-]{150,}/g],
  ['doppler', /(?<![\w-])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}/g],
  ['pulumi', /(?<![\w-])pul-[0-9a-f]{40}(?![\w-])/g],
  ['age-secret-key', /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/g],
];
