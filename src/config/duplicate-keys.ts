// The duplicate-key scan lives in util/ (corpus serve's request bodies use it too); the
// configuration readers import it from here.
export { findDuplicateKey, formatFieldPath, type PathSegment } from '../util/duplicate-keys.ts';
