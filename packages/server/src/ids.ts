import { ulid } from 'ulid';

/** `req_<ULID>`: sortable by time, unique without coordination. */
export const newRequestId = (): string => `req_${ulid()}`;
/** `acct_<ULID>` */
export const newAccountId = (): string => `acct_${ulid()}`;
/** `key_<ULID>` */
export const newKeyId = (): string => `key_${ulid()}`;

/** The shape of ids made by this module (Crockford base32 ULID behind a prefix). */
export const ID_PATTERNS = {
  account: /^acct_[0-9A-HJKMNP-TV-Z]{26}$/,
  key: /^key_[0-9A-HJKMNP-TV-Z]{26}$/,
} as const;
