import { runAdminCli } from '../ops/admin-cli.js';

void runAdminCli(process.argv.slice(2)).then((code) => process.exit(code));
