import { and, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TMyReviewAnswer, TReviewList } from '#shared/contract/reviews.js';
import type { TPublicWorkflow } from '#shared/contract/workflows.js';
import { adminAuditLogs, workflowExecutions, workflowRatings, workflowReviews } from '#server/db/schema.js';
import { signUpUser, TestClient } from '#server/test/client.js';
import { useAdminApp } from '#server/test/test-data.js';
import { chargeRun } from '../credits/service.js';
import { tallyRuns } from '../executions/service.js';
import { addCatalogueWorkflow } from './testing/fixtures.js';

const { t, admin, adminId } = useAdminApp();

const survey = {
  interactionType: 'survey',
  surveyQuestions: [{ id: 'q1', question: { es: '¿Nombre?', en: 'Name?' }, type: 'text', options: [] }],
};
const addWorkflow = (name: string, extra: Record<string, unknown> = {}) =>
  addCatalogueWorkflow(t.database.db, adminId(), name, { ...survey, ...extra });

/** A run of the workflow by this person, started through the API and then marked as `status`. */
async function runOf(
  client: TestClient,
  workflowId: string,
  status: 'completed' | 'failed' = 'completed',
): Promise<void> {
  const res = await client.post('/api/executions/start', { workflowId });
  if (res.statusCode !== 201) throw new Error(`start: ${res.statusCode} ${res.body}`);
  const { executionId } = res.json() as { executionId: string };
  // Paid for as its answers would pay for it (the run counter counts paid runs), then ended.
  await t.database.db.transaction((tx) => chargeRun(tx, t.deps.metrics, executionId));
  await t.database.db
    .update(workflowExecutions)
    .set({ status, outputType: 'text', outputData: 'done' })
    .where(eq(workflowExecutions.id, executionId));
}

/** A signed-up person who completed a run of the workflow. */
async function reviewer(workflowId: string, fullName = 'Ana García López') {
  const person = await signUpUser(t, { fullName });
  await runOf(person.client, workflowId);
  return person;
}

const reviewsOf = async (client: TestClient, workflowId: string, query = '') =>
  (await client.get(`/api/workflows/${workflowId}/reviews${query}`)).json() as TReviewList;

async function card(workflowId: string): Promise<TPublicWorkflow | undefined> {
  const list = (await new TestClient(t).get('/api/workflows/public')).json() as TPublicWorkflow[];
  return list.find((w) => w.id === workflowId);
}

/** The stored aggregate and the same numbers counted from the visible reviews. */
async function storedAndCounted(workflowId: string) {
  const { db } = t.database;
  const [stored] = await db
    .select({ count: workflowRatings.reviewCount, sum: workflowRatings.ratingSum })
    .from(workflowRatings)
    .where(eq(workflowRatings.workflowId, workflowId));
  const [counted] = await db
    .select({
      count: sql<number>`count(*)::int`,
      sum: sql<number>`coalesce(sum(${workflowReviews.rating}), 0)::int`,
    })
    .from(workflowReviews)
    .where(and(eq(workflowReviews.workflowId, workflowId), isNull(workflowReviews.hiddenAt)));
  return { stored, counted };
}

describe('reviewing a workflow', () => {
  it('is refused, in the reader’s language, to people without a completed run, and stores nothing', async () => {
    const wf = await addWorkflow('Unrun');
    const stranger = await signUpUser(t);
    const failed = await signUpUser(t);
    await runOf(failed.client, wf.id, 'failed');

    for (const who of [stranger, failed]) {
      const res = await who.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 5 });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        code: 'FORBIDDEN',
        key: 'reviewNeedsCompletedRun',
        error: 'Only people who completed a run of this workflow can review it',
      });
    }
    const es = await stranger.client.put(
      `/api/workflows/${wf.id}/reviews/mine`,
      { rating: 5 },
      { 'accept-language': 'es' },
    );
    expect(es.json().error).toBe('Solo quien completó una ejecución de este workflow puede valorarlo');
    expect((await reviewsOf(stranger.client, wf.id)).canReview).toBe(false);
    expect(
      await t.database.db.select().from(workflowReviews).where(eq(workflowReviews.workflowId, wf.id)),
    ).toEqual([]);
    expect((await card(wf.id))?.rating).toEqual({ average: null, count: 0 });
  });

  it('creates one review per person, edits it in place, trims the comment, and shows it on the card', async () => {
    const wf = await addWorkflow('Rated');
    const ana = await reviewer(wf.id);
    const luis = await reviewer(wf.id, 'Luis');
    expect((await reviewsOf(ana.client, wf.id)).canReview).toBe(true);

    const created = await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, {
      rating: 4,
      comment: '  Muy útil <b>de verdad</b>  ',
    });
    expect(created.statusCode).toBe(200);
    const body = created.json() as TMyReviewAnswer;
    expect(body.review).toMatchObject({
      rating: 4,
      comment: 'Muy útil <b>de verdad</b>',
      authorName: 'Ana G.',
      hidden: false,
    });
    expect(body.rating).toEqual({ average: 4, count: 1 });

    t.clock.advance(1000);
    await luis.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 5, comment: '   ' });
    expect((await card(wf.id))?.rating).toEqual({ average: 4.5, count: 2 });

    const edited = (
      await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 2, comment: 'Changed my mind' })
    ).json() as TMyReviewAnswer;
    expect(edited.review.id).toBe(body.review.id);
    expect(edited.rating).toEqual({ average: 3.5, count: 2 });
    expect((await card(wf.id))?.rating).toEqual({ average: 3.5, count: 2 });

    const reader = await signUpUser(t);
    const list = await reviewsOf(reader.client, wf.id);
    expect(list.total).toBe(2);
    // Newest first: Luis wrote after Ana; an edit does not move Ana's review up.
    expect(list.reviews.map((r) => [r.authorName, r.rating, r.comment])).toEqual([
      ['Luis', 5, null],
      ['Ana G.', 2, 'Changed my mind'],
    ]);
    expect(list.mine).toBeNull();
  });

  it("answers the reader's own review once, as theirs, and not again in the list", async () => {
    const wf = await addWorkflow('Listed once');
    const ana = await reviewer(wf.id);
    const luis = await reviewer(wf.id, 'Luis');
    await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 2, comment: 'Mine' });
    await luis.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 5 });

    const forLuis = await reviewsOf(luis.client, wf.id);
    expect(forLuis.mine).toMatchObject({ rating: 5, comment: null });
    expect(forLuis.reviews.map((r) => r.authorName)).toEqual(['Ana G.']);
    expect(forLuis.total).toBe(1);
    const forAna = await reviewsOf(ana.client, wf.id);
    expect(forAna.mine).toMatchObject({ rating: 2, comment: 'Mine' });
    expect(forAna.reviews.map((r) => r.authorName)).toEqual(['Luis']);
    // The rating still counts every visible review, the reader's too.
    expect(forAna.rating).toEqual({ average: 3.5, count: 2 });
  });

  it('refuses bad input with a clear error and changes nothing', async () => {
    const wf = await addWorkflow('Strict');
    const ana = await reviewer(wf.id);
    await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 3, comment: 'ok' });
    const bad = [
      { rating: 0 },
      { rating: 6 },
      { rating: 4.5 },
      { rating: '5' },
      {},
      { rating: 5, comment: 'x'.repeat(2001) },
      { rating: 5, comment: 7 },
    ];
    for (const payload of bad) {
      const res = await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, payload, {
        'accept-language': 'es',
      });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().error).toMatch(/^Solicitud no válida/);
    }
    // 2,000 characters after trimming are accepted.
    const longest = await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, {
      rating: 3,
      comment: ` ${'y'.repeat(2000)} `,
    });
    expect(longest.statusCode).toBe(200);
    await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 3, comment: 'ok' });
    expect((await reviewsOf(ana.client, wf.id)).mine).toMatchObject({ rating: 3, comment: 'ok' });
    const unknown = await ana.client.put(`/api/workflows/${crypto.randomUUID()}/reviews/mine`, { rating: 3 });
    expect(unknown.statusCode).toBe(404);
  });

  it('pages the reviews newest first', async () => {
    const wf = await addWorkflow('Paged');
    const people = [];
    for (let i = 0; i < 5; i += 1) {
      const p = await reviewer(wf.id, `Person${i}`);
      await p.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: (i % 5) + 1 });
      t.clock.advance(1000);
      people.push(p);
    }
    const reader = (await signUpUser(t)).client;
    const first = await reviewsOf(reader, wf.id, '?limit=2');
    const second = await reviewsOf(reader, wf.id, '?limit=2&offset=2');
    const third = await reviewsOf(reader, wf.id, '?limit=2&offset=4');
    expect(first.total).toBe(5);
    expect([...first.reviews, ...second.reviews, ...third.reviews].map((r) => r.authorName)).toEqual([
      'Person4',
      'Person3',
      'Person2',
      'Person1',
      'Person0',
    ]);
    expect((await people[0]!.client.get(`/api/workflows/${wf.id}/reviews?limit=51`)).statusCode).toBe(400);
  });

  it('deletes the person’s own review, and a second delete is not found', async () => {
    const wf = await addWorkflow('Deleted');
    const ana = await reviewer(wf.id);
    await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 1 });
    const gone = await ana.client.delete(`/api/workflows/${wf.id}/reviews/mine`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ rating: { average: null, count: 0 } });
    expect((await ana.client.delete(`/api/workflows/${wf.id}/reviews/mine`)).statusCode).toBe(404);
    expect((await reviewsOf(ana.client, wf.id)).mine).toBeNull();
    expect((await card(wf.id))?.rating).toEqual({ average: null, count: 0 });
  });

  it('goes with its author’s deleted account, and leaves the average', async () => {
    const wf = await addWorkflow('Forgotten');
    const ana = await reviewer(wf.id);
    const luis = await reviewer(wf.id, 'Luis');
    await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 1, comment: 'My own words' });
    await luis.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 5 });
    const exported = (await ana.client.get('/api/account/export')).json() as {
      reviews: Array<{ workflowId: string; rating: number; comment: string | null }>;
    };
    expect(exported.reviews).toEqual([
      expect.objectContaining({ workflowId: wf.id, rating: 1, comment: 'My own words', hidden: false }),
    ]);
    const gone = await ana.client.post('/api/account/delete', { password: ana.password });
    expect(gone.statusCode).toBe(200);
    const list = await reviewsOf(luis.client, wf.id);
    expect(list.reviews).toEqual([]);
    expect(list.mine).toMatchObject({ rating: 5 });
    expect(list.rating).toEqual({ average: 5, count: 1 });
    expect((await card(wf.id))?.rating).toEqual({ average: 5, count: 1 });
    const { stored, counted } = await storedAndCounted(wf.id);
    expect(stored).toEqual(counted);
  });

  it('is read by signed-in people only, and not for workflows they cannot see', async () => {
    const wf = await addWorkflow('Readable');
    const hidden = await addWorkflow('Private', { isPublic: false });
    expect((await new TestClient(t).get(`/api/workflows/${wf.id}/reviews`)).statusCode).toBe(401);
    const user = await signUpUser(t);
    expect((await user.client.get(`/api/workflows/${hidden.id}/reviews`)).statusCode).toBe(404);
    expect((await admin.get(`/api/workflows/${hidden.id}/reviews`)).statusCode).toBe(200);
  });
});

describe('moderation', () => {
  it('hides a review from lists and the average, audits it, and shows it again', async () => {
    const wf = await addWorkflow('Moderated');
    const ana = await reviewer(wf.id);
    const luis = await reviewer(wf.id, 'Luis');
    await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 1, comment: 'spam spam' });
    t.clock.advance(1000);
    await luis.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 5 });
    const reviewId = (await reviewsOf(ana.client, wf.id)).mine!.id;

    expect((await ana.client.patch(`/api/admin/reviews/${reviewId}`, { hidden: true })).statusCode).toBe(403);
    const hid = await admin.patch(`/api/admin/reviews/${reviewId}`, { hidden: true });
    expect(hid.statusCode).toBe(200);
    expect(hid.json()).toMatchObject({ id: reviewId, hidden: true, author: { id: ana.id } });

    expect((await card(wf.id))?.rating).toEqual({ average: 5, count: 1 });
    // Luis sees his own review apart and no longer Ana's in the list.
    const forLuis = await reviewsOf(luis.client, wf.id);
    expect(forLuis.reviews).toEqual([]);
    expect(forLuis.total).toBe(0);
    expect(forLuis.mine).toMatchObject({ rating: 5 });
    // The author is told, and editing does not undo the hiding.
    expect((await reviewsOf(ana.client, wf.id)).mine).toMatchObject({ hidden: true });
    const edit = (
      await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 2, comment: 'still spam' })
    ).json() as TMyReviewAnswer;
    expect(edit.review.hidden).toBe(true);
    expect(edit.rating).toEqual({ average: 5, count: 1 });

    const adminList = await admin.get(`/api/admin/workflows/${wf.id}/reviews`);
    expect(adminList.headers['x-total-count']).toBe('2');
    expect((adminList.json() as Array<{ hidden: boolean }>).map((r) => r.hidden)).toEqual([false, true]);

    // Hiding again changes nothing and audits nothing.
    await admin.patch(`/api/admin/reviews/${reviewId}`, { hidden: true });
    const shown = await admin.patch(`/api/admin/reviews/${reviewId}`, { hidden: false });
    expect(shown.json()).toMatchObject({ hidden: false, hiddenAt: null });
    expect((await card(wf.id))?.rating).toEqual({ average: 3.5, count: 2 });

    const audit = await t.database.db
      .select({ action: adminAuditLogs.actionType, target: adminAuditLogs.targetType })
      .from(adminAuditLogs)
      .where(eq(adminAuditLogs.targetId, reviewId));
    expect(audit.map((a) => a.action).sort()).toEqual(['review_hidden', 'review_unhidden']);
    expect(audit.every((a) => a.target === 'review')).toBe(true);
    expect(
      (await admin.patch(`/api/admin/reviews/${crypto.randomUUID()}`, { hidden: true })).statusCode,
    ).toBe(404);
  });
});

describe('moderation that outlives the review', () => {
  it('starts a deleted and re-written review hidden when the last one was hidden, until an admin shows it', async () => {
    const wf = await addWorkflow('Held');
    const ana = await reviewer(wf.id);
    const luis = await reviewer(wf.id, 'Luis');
    await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 1, comment: 'spam spam' });
    await luis.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 5 });
    const first = (await reviewsOf(ana.client, wf.id)).mine!.id;
    expect((await admin.patch(`/api/admin/reviews/${first}`, { hidden: true })).statusCode).toBe(200);

    expect((await ana.client.delete(`/api/workflows/${wf.id}/reviews/mine`)).statusCode).toBe(200);
    const again = await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, {
      rating: 1,
      comment: 'spam',
    });
    expect(again.statusCode).toBe(200);
    const answer = again.json() as TMyReviewAnswer;
    expect(answer.review).toMatchObject({ hidden: true, comment: 'spam' });
    // Neither the rating nor the lists take it back.
    expect(answer.rating).toEqual({ average: 5, count: 1 });
    expect((await card(wf.id))?.rating).toEqual({ average: 5, count: 1 });
    // A third reader's list holds Luis's review only (Luis's own list answers his as `mine`).
    const reader = await signUpUser(t, { fullName: 'Marta' });
    expect((await reviewsOf(reader.client, wf.id)).reviews.map((r) => r.authorName)).toEqual(['Luis']);
    const forLuis = await reviewsOf(luis.client, wf.id);
    expect(forLuis.reviews).toEqual([]);
    expect(forLuis.mine).toMatchObject({ rating: 5 });
    expect(await storedAndCounted(wf.id)).toEqual({
      stored: { count: 1, sum: 5 },
      counted: { count: 1, sum: 5 },
    });

    // An admin showing the new review lifts the hold: a later re-post starts visible.
    const second = answer.review.id;
    expect(second).not.toBe(first);
    await admin.patch(`/api/admin/reviews/${second}`, { hidden: false });
    await ana.client.delete(`/api/workflows/${wf.id}/reviews/mine`);
    const third = await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 3 });
    expect((third.json() as TMyReviewAnswer).review.hidden).toBe(false);
    expect((await card(wf.id))?.rating).toEqual({ average: 4, count: 2 });
  });

  it('holds nothing against another author or another workflow', async () => {
    const wf = await addWorkflow('Held apart');
    const other = await addWorkflow('Other');
    const ana = await reviewer(wf.id);
    await runOf(ana.client, other.id);
    await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 1 });
    await admin.patch(`/api/admin/reviews/${(await reviewsOf(ana.client, wf.id)).mine!.id}`, {
      hidden: true,
    });
    const elsewhere = await ana.client.put(`/api/workflows/${other.id}/reviews/mine`, { rating: 4 });
    expect((elsewhere.json() as TMyReviewAnswer).review.hidden).toBe(false);
    const luis = await reviewer(wf.id, 'Luis');
    const his = await luis.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 4 });
    expect((his.json() as TMyReviewAnswer).review.hidden).toBe(false);
  });
});

describe('the catalogue snapshot', () => {
  it('gets a new ETag when a rating or a run count changes', async () => {
    const wf = await addWorkflow('Fresh');
    const ana = await reviewer(wf.id);
    await tallyRuns(t.database.db);
    const before = await new TestClient(t).get('/api/workflows/public');
    const etag = String(before.headers.etag);
    expect((before.json() as TPublicWorkflow[]).find((w) => w.id === wf.id)?.runCount).toBe(1);

    await ana.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 5 });
    const rated = await new TestClient(t).get('/api/workflows/public', { 'if-none-match': etag });
    expect(rated.statusCode).toBe(200);
    expect((rated.json() as TPublicWorkflow[]).find((w) => w.id === wf.id)?.rating).toEqual({
      average: 5,
      count: 1,
    });

    const ratedEtag = String(rated.headers.etag);
    await runOf(ana.client, wf.id);
    await tallyRuns(t.database.db);
    const ran = await new TestClient(t).get('/api/workflows/public', { 'if-none-match': ratedEtag });
    expect(ran.statusCode).toBe(200);
    expect((ran.json() as TPublicWorkflow[]).find((w) => w.id === wf.id)?.runCount).toBe(2);
    // Nothing new: the snapshot is served as it is.
    const again = await new TestClient(t).get('/api/workflows/public', {
      'if-none-match': String(ran.headers.etag),
    });
    expect(again.statusCode).toBe(304);
  });
});

describe('the stored average under concurrent writers', () => {
  it('equals the recounted one after 50 reviews at once, then concurrent edits, deletes and hides', async () => {
    const wf = await addWorkflow('Busy');
    const people = await Promise.all(Array.from({ length: 50 }, (_, i) => reviewer(wf.id, `Busy${i}`)));

    const firsts = await Promise.all(
      people.map((p, i) => p.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: (i % 5) + 1 })),
    );
    expect(firsts.map((r) => r.statusCode)).toEqual(people.map(() => 200));
    let { stored, counted } = await storedAndCounted(wf.id);
    expect(stored).toEqual({ count: 50, sum: 150 });
    expect(stored).toEqual(counted);

    // Everyone edits, the first ten delete as well, and an admin hides five others, all at once.
    const reviewIds = await Promise.all(
      people.slice(10, 15).map(async (p) => (await reviewsOf(p.client, wf.id)).mine!.id),
    );
    const writes = await Promise.all([
      ...people.map((p, i) => p.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 5 - (i % 5) })),
      ...people.slice(0, 10).map((p) => p.client.delete(`/api/workflows/${wf.id}/reviews/mine`)),
      ...reviewIds.map((id) => admin.patch(`/api/admin/reviews/${id}`, { hidden: true })),
    ]);
    // A delete that runs before its author's edit lets the edit create the review again.
    expect(writes.filter((r) => r.statusCode !== 200).map((r) => r.body)).toEqual([]);
    ({ stored, counted } = await storedAndCounted(wf.id));
    expect(stored).toEqual(counted);
    const remaining = await t.database.db
      .select({ id: workflowReviews.id })
      .from(workflowReviews)
      .where(eq(workflowReviews.workflowId, wf.id));
    expect(counted!.count).toBe(remaining.length - 5);
    expect((await card(wf.id))?.rating.count).toBe(counted!.count);
  }, 120_000);
});
