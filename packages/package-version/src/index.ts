export { packageVersion } from './package-version.js';
