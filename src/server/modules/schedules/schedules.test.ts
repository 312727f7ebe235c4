import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TNotificationList } from '#shared/contract/notifications.js';
import type { TSchedule, TScheduleDetail } from '#shared/contract/schedules.js';
import {
  savedInputs,
  scheduleRuns,
  schedules,
  userWorkflows,
  workflowExecutions,
} from '#server/db/schema.js';
import { withConfig } from '#server/test/test-data.js';
import {
  addWorkflow,
  apiRequest,
  balanceOf,
  newApiKey,
  signUpUser,
  useRunsWorld,
  type RunsWorld,
} from '../executions/testing/fixtures.js';
import { startScheduledRun } from '../public-api/saved-inputs.js';
import { runDueSchedules as runDue, SCHEDULE_HISTORY_KEPT, warnUncoveredSchedules } from './job.js';

const runDueSchedules = (deps: Parameters<typeof runDue>[0]) => runDue(deps, startScheduledRun);

const world: RunsWorld = useRunsWorld();

/** Wall-clock "HH:mm" of an ISO time in a zone. */
const clockIn = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );

/** A person with saved answers of a one-credit survey workflow (written as the saved answers module stores them). */
async function personWithSavedAnswers(overrides: { price?: number } = {}) {
  const person = await signUpUser(world.t);
  const workflow = await addWorkflow(world, { creditsPerExecution: overrides.price ?? 1 });
  const [saved] = await world.t.database.db
    .insert(savedInputs)
    .values({
      userId: person.id,
      workflowId: workflow.id,
      name: 'Ana',
      answers: { q1: 'Ana' },
      language: 'es',
    })
    .returning();
  return { ...person, workflow, savedInputId: saved!.id };
}

async function createSchedule(
  client: Awaited<ReturnType<typeof signUpUser>>['client'],
  body: Record<string, unknown>,
  lang = 'en',
) {
  return client.post('/api/schedules', body, { 'accept-language': lang });
}

/** Moves the injected clock just past an ISO time (never back). */
function clockTo(iso: string, plusMs = 2_000) {
  const target = new Date(iso).getTime() + plusMs;
  const ahead = target - world.t.clock.now().getTime();
  if (ahead > 0) world.t.clock.advance(ahead);
}

const runsOf = (savedInputId: string) =>
  world.t.database.db
    .select({ id: workflowExecutions.id, origin: workflowExecutions.origin })
    .from(workflowExecutions)
    .innerJoin(savedInputs, eq(savedInputs.workflowId, workflowExecutions.workflowId))
    .where(eq(savedInputs.id, savedInputId));

const historyOf = (scheduleId: string) =>
  world.t.database.db.select().from(scheduleRuns).where(eq(scheduleRuns.scheduleId, scheduleId));

describe('creating schedules', () => {
  it('answers the next five times in its time zone, and lists and reads it back', async () => {
    const p = await personWithSavedAnswers();
    const res = await createSchedule(p.client, {
      savedInputId: p.savedInputId,
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Madrid',
    });
    expect(res.statusCode, res.body).toBe(201);
    const schedule = res.json<TSchedule>();
    expect(schedule.active).toBe(true);
    expect(schedule.nextRuns).toHaveLength(5);
    expect(schedule.nextRunAt).toBe(schedule.nextRuns[0]);
    for (const time of schedule.nextRuns) {
      expect(clockIn(time, 'Europe/Madrid')).toBe('09:00');
      expect([0, 6]).not.toContain(new Date(time).getUTCDay());
    }
    const list = await p.client.get('/api/schedules');
    expect(list.json<{ schedules: TSchedule[] }>().schedules.map((s) => s.id)).toEqual([schedule.id]);
    const one = await p.client.get(`/api/schedules/${schedule.id}`);
    expect(one.json<TScheduleDetail>()).toMatchObject({ id: schedule.id, history: [] });
  });

  it("takes the person's own time zone when none is given", async () => {
    const p = await personWithSavedAnswers();
    const zone = await p.client.patch('/api/account/profile', { timezone: 'America/New_York' });
    expect(zone.statusCode, zone.body).toBe(200);
    expect(zone.json<{ timezone: string }>().timezone).toBe('America/New_York');
    const res = await createSchedule(p.client, { savedInputId: p.savedInputId, cron: '30 7 * * *' });
    expect(res.json<TSchedule>().timezone).toBe('America/New_York');
    expect(clockIn(res.json<TSchedule>().nextRunAt!, 'America/New_York')).toBe('07:30');
    const bad = await p.client.patch(
      '/api/account/profile',
      { timezone: 'Nowhere/City' },
      { 'accept-language': 'es' },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toContain('Zona horaria desconocida');
  });

  it('previews a timing without storing anything', async () => {
    const p = await personWithSavedAnswers();
    const res = await p.client.post('/api/schedules/preview', {
      cron: '0 18 1 * *',
      timezone: 'Europe/Madrid',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { nextRuns } = res.json<{ nextRuns: string[] }>();
    expect(nextRuns).toHaveLength(5);
    expect(nextRuns.every((t) => clockIn(t, 'Europe/Madrid') === '18:00')).toBe(true);
    expect(await world.t.database.db.select().from(schedules).where(eq(schedules.userId, p.id))).toEqual([]);
  });

  it("refuses every bad input with a clear error in the reader's language, and stores nothing", async () => {
    const p = await personWithSavedAnswers();
    const other = await personWithSavedAnswers();
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ cron: 'every day' }, 400, 'not a valid cron expression', 'no es una expresión cron válida'],
      [{ cron: '*/5 * * * *' }, 400, 'at most once every 15 minutes', 'como mucho una vez cada 15 minutos'],
      [{ timezone: 'Mars/Olympus' }, 400, 'Unknown time zone "Mars/Olympus"', 'Zona horaria desconocida'],
      [{ cron: '0 9 30 2 *' }, 400, 'would never run', 'no se ejecutaría nunca'],
      [
        { endsAt: '2020-01-01T00:00:00Z' },
        400,
        'end date must be in the future',
        'fecha de fin debe estar en el futuro',
      ],
      [
        { savedInputId: other.savedInputId },
        404,
        'Saved answers not found',
        'Respuestas guardadas no encontradas',
      ],
    ];
    for (const [change, status, en, es] of cases) {
      const body = { savedInputId: p.savedInputId, cron: '0 9 * * *', timezone: 'UTC', ...change };
      const inEn = await createSchedule(p.client, body, 'en');
      expect(inEn.statusCode, JSON.stringify(change)).toBe(status);
      expect(inEn.json<{ error: string }>().error).toContain(en);
      const inEs = await createSchedule(p.client, body, 'es');
      expect(inEs.json<{ error: string }>().error).toContain(es);
    }
    expect(await world.t.database.db.select().from(schedules).where(eq(schedules.userId, p.id))).toEqual([]);
  });

  it('lets an admin lower the minimum interval, and keeps to the per-account limit', async () => {
    const p = await personWithSavedAnswers();
    await withConfig(world.t, 'schedule_min_interval_minutes', 1, async () => {
      const res = await createSchedule(p.client, {
        savedInputId: p.savedInputId,
        cron: '* * * * *',
        timezone: 'UTC',
      });
      expect(res.statusCode, res.body).toBe(201);
    });
    const again = await createSchedule(p.client, {
      savedInputId: p.savedInputId,
      cron: '0 9 * * *',
      timezone: 'UTC',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: string }>().error).toContain('already have a schedule');
    const [second] = await world.t.database.db
      .insert(savedInputs)
      .values({ userId: p.id, workflowId: p.workflow.id, name: 'Otra', answers: { q1: 'Eva' } })
      .returning();
    await withConfig(world.t, 'schedules_per_account', 1, async () => {
      const res = await createSchedule(
        p.client,
        { savedInputId: second!.id, cron: '0 9 * * *', timezone: 'UTC' },
        'es',
      );
      expect(res.statusCode).toBe(409);
      expect(res.json<{ error: string }>().error).toBe('Una cuenta puede tener como máximo 1 programaciones');
    });
  });

  it("pauses, resumes, changes and deletes; someone else's schedule is not found", async () => {
    const p = await personWithSavedAnswers();
    const other = await signUpUser(world.t);
    const created = (
      await createSchedule(p.client, { savedInputId: p.savedInputId, cron: '0 9 * * *', timezone: 'UTC' })
    ).json<TSchedule>();
    const paused = await p.client.patch(`/api/schedules/${created.id}`, { active: false });
    expect(paused.json<TSchedule>()).toMatchObject({ active: false, pausedReason: 'person', nextRuns: [] });
    const resumed = await p.client.patch(`/api/schedules/${created.id}`, { active: true });
    expect(resumed.json<TSchedule>()).toMatchObject({ active: true, pausedReason: null });
    const changed = await p.client.patch(`/api/schedules/${created.id}`, { cron: '15 10 * * *' });
    expect(changed.json<TSchedule>().nextRuns.every((t) => t.slice(11, 16) === '10:15')).toBe(true);
    const tooOften = await p.client.patch(`/api/schedules/${created.id}`, { cron: '*/2 * * * *' });
    expect(tooOften.statusCode).toBe(400);
    expect(await other.client.get(`/api/schedules/${created.id}`)).toMatchObject({ statusCode: 404 });
    expect(await other.client.patch(`/api/schedules/${created.id}`, { active: false })).toMatchObject({
      statusCode: 404,
    });
    expect(await other.client.delete(`/api/schedules/${created.id}`)).toMatchObject({ statusCode: 404 });
    expect((await p.client.delete(`/api/schedules/${created.id}`)).statusCode).toBe(200);
    expect((await p.client.get(`/api/schedules/${created.id}`)).statusCode).toBe(404);
  });
});

describe('the public API', () => {
  it('creates, reads, changes and deletes with an API key', async () => {
    const p = await personWithSavedAnswers();
    const key = await newApiKey(p.client);
    const created = await apiRequest(world, key, 'POST', '/api/v1/schedules', {
      savedInputId: p.savedInputId,
      cron: '0 8 * * 1',
      timezone: 'Europe/Madrid',
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json<TSchedule>();
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['id', 'nextRunAt', 'nextRuns', 'active']));
    expect(body.nextRuns).toHaveLength(5);
    const read = await apiRequest(world, key, 'GET', `/api/v1/schedules/${body.id}`);
    expect(read.json<TScheduleDetail>().id).toBe(body.id);
    const patched = await world.t.app.inject({
      method: 'PATCH',
      url: `/api/v1/schedules/${body.id}`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ active: false }),
    });
    expect(patched.json<TSchedule>().active).toBe(false);
    const deleted = await world.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/schedules/${body.id}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await apiRequest(world, key, 'GET', `/api/v1/schedules/${body.id}`)).statusCode).toBe(404);
  });
});

describe('the schedules job', () => {
  async function scheduled(cron = '0 9 * * *', timezone = 'Europe/Madrid', price = 1) {
    const p = await personWithSavedAnswers({ price });
    const res = await createSchedule(p.client, { savedInputId: p.savedInputId, cron, timezone });
    expect(res.statusCode, res.body).toBe(201);
    return { ...p, schedule: res.json<TSchedule>() };
  }
  const stored = async (id: string) =>
    (await world.t.database.db.select().from(schedules).where(eq(schedules.id, id)))[0]!;

  it('starts exactly one charged run for a due time, with origin schedule, however often it looks', async () => {
    const p = await scheduled();
    const before = await balanceOf(world, p.id);
    clockTo(p.schedule.nextRunAt!);
    await Promise.all([runDueSchedules(world.t.deps), runDueSchedules(world.t.deps)]);
    await runDueSchedules(world.t.deps);
    const runs = await runsOf(p.savedInputId);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.origin).toBe('schedule');
    expect(await balanceOf(world, p.id)).toBe(before - 1);
    const history = await historyOf(p.schedule.id);
    expect(history).toMatchObject([{ outcome: 'started', runId: runs[0]!.id, missed: 0 }]);
    expect(history[0]!.dueAt.toISOString()).toBe(p.schedule.nextRunAt);
    const after = await stored(p.schedule.id);
    expect(after.nextRunAt!.toISOString()).toBe(p.schedule.nextRuns[1]);
    // The saved answers show it as their last run.
    const saved = await p.client.get(`/api/saved-inputs/${p.savedInputId}`);
    expect(saved.json<{ lastRun: { id: string; origin: string } | null }>().lastRun).toMatchObject({
      id: runs[0]!.id,
      origin: 'schedule',
    });
    // The workflow received the saved answers.
    const call = await world.service.callFor(runs[0]!.id);
    expect(JSON.stringify(call.body.responses)).toContain('Ana');
    // Its origin shows in the person's history, on its page and in the admin list, whose filter finds it.
    const runList = await p.client.get('/api/executions');
    const row = runList.json<Array<{ id: string; origin: string }>>().find((r) => r.id === runs[0]!.id);
    expect(row?.origin).toBe('schedule');
    expect((await p.client.get(`/api/executions/${runs[0]!.id}`)).json<{ origin: string }>().origin).toBe(
      'schedule',
    );
    const bySchedule = await world.admin.get(
      `/api/admin/executions?origin=schedule&q=${encodeURIComponent(p.email)}`,
    );
    expect(bySchedule.json<Array<{ id: string; origin: string }>>().map((r) => [r.id, r.origin])).toEqual([
      [runs[0]!.id, 'schedule'],
    ]);
    const fromWeb = await world.admin.get(
      `/api/admin/executions?origin=web&q=${encodeURIComponent(p.email)}`,
    );
    expect(fromWeb.json<unknown[]>()).toEqual([]);
  });

  it('after downtime runs once for the latest missed time, never a burst', async () => {
    const p = await scheduled('0 9 * * *', 'UTC');
    // Three days later, an hour after that day's time.
    clockTo(p.schedule.nextRuns[2]!, 3_600_000);
    await runDueSchedules(world.t.deps);
    await runDueSchedules(world.t.deps);
    expect(await runsOf(p.savedInputId)).toHaveLength(1);
    const history = await historyOf(p.schedule.id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ outcome: 'started', missed: 2 });
    expect(history[0]!.dueAt.toISOString()).toBe(p.schedule.nextRuns[2]);
    expect((await stored(p.schedule.id)).nextRunAt!.toISOString()).toBe(p.schedule.nextRuns[3]);
  });

  it('warns once of a run due within 24 hours that the balance will not cover', async () => {
    const p = await scheduled('0 6 * * *', 'UTC', 1_000);
    clockTo(new Date(new Date(p.schedule.nextRunAt!).getTime() - 60 * 60_000).toISOString());
    expect(await warnUncoveredSchedules(world.t.deps)).toBe(1);
    expect(await warnUncoveredSchedules(world.t.deps)).toBe(0);
    const bell = (await p.client.get('/api/notifications')).json<TNotificationList>();
    expect(bell.items).toMatchObject([
      { kind: 'schedule_uncovered', params: { dueAt: p.schedule.nextRunAt, credits: 1_000 } },
    ]);
  });

  it('skips without enough credits, records why, and pauses itself after three skips in a row', async () => {
    const p = await scheduled('0 6 * * *', 'UTC', 1_000);
    const before = await balanceOf(world, p.id);
    for (let i = 0; i < 3; i += 1) {
      const { nextRunAt } = await stored(p.schedule.id);
      clockTo(nextRunAt!.toISOString());
      await runDueSchedules(world.t.deps);
    }
    const history = await historyOf(p.schedule.id);
    expect(history.map((h) => [h.outcome, h.reason])).toEqual([
      ['skipped', 'insufficient_credits'],
      ['skipped', 'insufficient_credits'],
      ['skipped', 'insufficient_credits'],
    ]);
    expect(await balanceOf(world, p.id)).toBe(before);
    expect(await runsOf(p.savedInputId)).toHaveLength(0);
    const paused = await p.client.get(`/api/schedules/${p.schedule.id}`);
    expect(paused.json<TScheduleDetail>()).toMatchObject({
      active: false,
      pausedReason: 'skips',
      skipsInARow: 3,
    });
    expect(paused.json<TScheduleDetail>().history).toHaveLength(3);
    // The owner was told of each skip, the third as the pause it caused (bell and mail, by default).
    const bell = (await p.client.get('/api/notifications')).json<TNotificationList>();
    expect(bell.items.map((n) => [n.kind, n.params.reason])).toEqual([
      ['schedule_paused', 'insufficient_credits'],
      ['schedule_skipped', 'insufficient_credits'],
      ['schedule_skipped', 'insufficient_credits'],
    ]);
    // Resuming forgets the skips.
    const resumed = await p.client.patch(`/api/schedules/${p.schedule.id}`, { active: true });
    expect(resumed.json<TSchedule>()).toMatchObject({ active: true, skipsInARow: 0 });
  });

  it('skips with its own reason while the workflow is paused, then runs again', async () => {
    const p = await scheduled('0 7 * * *', 'UTC');
    await world.t.database.db
      .update(userWorkflows)
      .set({ isActive: false })
      .where(eq(userWorkflows.id, p.workflow.id));
    clockTo((await stored(p.schedule.id)).nextRunAt!.toISOString());
    await runDueSchedules(world.t.deps);
    expect((await historyOf(p.schedule.id)).map((h) => h.reason)).toEqual(['workflow_unavailable']);
    expect((await stored(p.schedule.id)).skipsInARow).toBe(1);
    await world.t.database.db
      .update(userWorkflows)
      .set({ isActive: true })
      .where(eq(userWorkflows.id, p.workflow.id));
    clockTo((await stored(p.schedule.id)).nextRunAt!.toISOString());
    await runDueSchedules(world.t.deps);
    expect(await runsOf(p.savedInputId)).toHaveLength(1);
    expect((await stored(p.schedule.id)).skipsInARow).toBe(0);
  });

  it('keeps the newest history rows only, the run just started among them', async () => {
    const p = await scheduled('0 8 * * *', 'UTC');
    const first = new Date(p.schedule.nextRunAt!).getTime();
    // A full history of earlier days, as a schedule that has run for months has.
    await world.t.database.db.insert(scheduleRuns).values(
      Array.from({ length: SCHEDULE_HISTORY_KEPT }, (_, i) => ({
        scheduleId: p.schedule.id,
        dueAt: new Date(first - (i + 1) * 86_400_000),
        outcome: 'skipped' as const,
        reason: 'insufficient_credits' as const,
      })),
    );
    clockTo(p.schedule.nextRunAt!);
    await runDueSchedules(world.t.deps);
    const history = await historyOf(p.schedule.id);
    expect(history).toHaveLength(SCHEDULE_HISTORY_KEPT);
    const times = history.map((h) => h.dueAt.getTime());
    expect(Math.max(...times)).toBe(first);
    // The oldest one went, the one before it stayed.
    expect(Math.min(...times)).toBe(first - (SCHEDULE_HISTORY_KEPT - 1) * 86_400_000);
    expect(history.find((h) => h.dueAt.getTime() === first)).toMatchObject({ outcome: 'started' });
    // Another schedule's history is not touched by it.
    const other = await scheduled('0 9 * * *', 'UTC');
    clockTo(other.schedule.nextRunAt!);
    await runDueSchedules(world.t.deps);
    expect(await historyOf(other.schedule.id)).toHaveLength(1);
    expect(await historyOf(p.schedule.id)).toHaveLength(SCHEDULE_HISTORY_KEPT);
  });

  it('lets a fault in one due time hold up only its own schedule, which stays due and runs once it mends', async () => {
    const broken = await scheduled('0 11 * * *', 'UTC');
    const sound = await scheduled('0 11 * * *', 'UTC');
    clockTo(broken.schedule.nextRunAt!);
    const fault = new Error('the store is unreachable');
    const failing: typeof startScheduledRun = (deps, tx, id, batch) =>
      id === broken.savedInputId ? Promise.reject(fault) : startScheduledRun(deps, tx, id, batch);
    await expect(runDue(world.t.deps, failing)).rejects.toBe(fault);
    expect(await runsOf(sound.savedInputId)).toHaveLength(1);
    expect(await historyOf(sound.schedule.id)).toMatchObject([{ outcome: 'started' }]);
    expect((await stored(sound.schedule.id)).nextRunAt!.toISOString()).toBe(sound.schedule.nextRuns[1]);
    // Nothing of the broken one was written: no run, no charge, no history, and it is still due.
    expect(await runsOf(broken.savedInputId)).toHaveLength(0);
    expect(await balanceOf(world, broken.id)).toBe((await balanceOf(world, sound.id)) + 1);
    expect(await historyOf(broken.schedule.id)).toHaveLength(0);
    expect((await stored(broken.schedule.id)).nextRunAt!.toISOString()).toBe(broken.schedule.nextRunAt);
    await runDueSchedules(world.t.deps);
    expect(await runsOf(broken.savedInputId)).toHaveLength(1);
    expect(await runsOf(sound.savedInputId)).toHaveLength(1);
    expect(await historyOf(broken.schedule.id)).toMatchObject([{ outcome: 'started' }]);
  });

  it('skips answers that no longer fit the questions, and a workflow turned into a chat, with their reasons', async () => {
    const p = await scheduled('0 10 * * *', 'UTC');
    const [workflow] = await world.t.database.db
      .select({ questions: userWorkflows.surveyQuestions })
      .from(userWorkflows)
      .where(eq(userWorkflows.id, p.workflow.id));
    // A new required question the saved answers do not answer.
    await world.t.database.db
      .update(userWorkflows)
      .set({
        surveyQuestions: [
          ...workflow!.questions,
          { ...workflow!.questions[0]!, id: 'q-new', required: true },
        ],
      })
      .where(eq(userWorkflows.id, p.workflow.id));
    clockTo((await stored(p.schedule.id)).nextRunAt!.toISOString());
    await runDueSchedules(world.t.deps);
    await world.t.database.db
      .update(userWorkflows)
      .set({ surveyQuestions: workflow!.questions, interactionType: 'chatbot' })
      .where(eq(userWorkflows.id, p.workflow.id));
    clockTo((await stored(p.schedule.id)).nextRunAt!.toISOString());
    await runDueSchedules(world.t.deps);
    const history = await historyOf(p.schedule.id);
    expect(history.map((h) => h.reason).sort()).toEqual(['needs_review', 'workflow_unavailable']);
    const [saved] = await world.t.database.db
      .select({ needsReview: savedInputs.needsReview })
      .from(savedInputs)
      .where(eq(savedInputs.id, p.savedInputId));
    // Marked by the first skip (the chat leaves the mark as it was: it takes no answers at all).
    expect(saved?.needsReview).toBe(true);
    expect(await runsOf(p.savedInputId)).toHaveLength(0);
    expect((await stored(p.schedule.id)).skipsInARow).toBe(2);
  });
});
