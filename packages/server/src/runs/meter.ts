// projects/projects.ts and projects/revisions.ts still import the meter from here: they are
// being reworked (issue 28, item 3) and take it from metrics/meter.ts with that work, when
// this file goes.
export { type GenerationMeter, NO_METER } from '../metrics/meter.ts';
