#!/usr/bin/env node
// Committed launcher so npm can link it before `npm run build` creates dist/.
import '../dist/cli/main.js';
