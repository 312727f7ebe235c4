import { afterAll } from 'vitest';
import { closeForgottenApps } from './open-apps.js';

// Loaded before every test file (vitest `setupFiles`). The books are checked when a test app closes (see
// buildTestApp); an app the file forgot to close is checked and closed here, and the file fails, so no
// suite that touched a database can skip the reconciliation.
afterAll(closeForgottenApps);
