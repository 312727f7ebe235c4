/**
 * The demo workflow services' one door into the app, used only in demo mode (DEMO_WORKFLOWS): the start-up
 * seeding calls `seedDemoWorkflows` (src/server/db/seed.ts), which creates the demo workflows and hands their
 * secrets to the services, and `buildApp` registers `demoServices` under `/demo-hooks` (src/server/app.ts).
 * Nothing else in src/ imports from demo/, so the demo stands beside the app like the outside workflow
 * services it imitates, and could leave it without touching a module.
 */
export { demoServices } from './hooks/routes.js';
export { seedDemoWorkflows } from './seed.js';
