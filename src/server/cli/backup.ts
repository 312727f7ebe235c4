import { runBackupCli } from '../ops/backup-cli.js';

void runBackupCli(process.argv.slice(2)).then((code) => process.exit(code));
