/** The SDK version, sent in `X-PGS-Client: pgs-js/<version>`. @example console.log(VERSION); */
export const VERSION = '0.1.0';
