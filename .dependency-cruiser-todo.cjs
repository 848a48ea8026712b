/**
 * The arrows the code does not follow yet: the rules .dependency-cruiser.cjs marks NOT_YET,
 * checked as errors. `npm run lint:imports:todo` prints every violation and fails while one
 * remains; it is a report of work left (issue 28, item 3), not part of `npm test`.
 */
const base = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  ...base,
  forbidden: base.forbidden
    .filter((rule) => rule.severity === 'ignore')
    .map((rule) => ({ ...rule, severity: 'error' })),
};
