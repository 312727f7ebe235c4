import { z } from 'zod';
import { ZBilingual, ZUserRef } from './common.js';
import { INTERACTION_TYPES, ZSurveyQuestion } from './workflows.js';

/*
 * A workflow's versions (decision 148): every save that changes what a run uses makes a numbered version of
 * exactly these fields, with its author and time. Owner, visibility, status and the signing secret are not part
 * of a version: they do not change what a run is asked or sent, and the secret must never be copied anywhere.
 */

/** What a run uses: the fields a version keeps. */
const VERSIONED_FIELDS = [
  'name',
  'description',
  'category',
  'interactionType',
  'creditsPerExecution',
  'webhookUrl',
  'welcomeMessage',
  'aiPrompt',
  'surveyQuestions',
] as const;
export type TVersionedField = (typeof VERSIONED_FIELDS)[number];

const ZWorkflowVersionContent = z.object({
  name: ZBilingual,
  description: ZBilingual.nullable(),
  category: ZBilingual,
  interactionType: z.enum(INTERACTION_TYPES),
  creditsPerExecution: z.number().int(),
  webhookUrl: z.string(),
  welcomeMessage: ZBilingual.nullable(),
  aiPrompt: z.string().nullable(),
  surveyQuestions: z.array(ZSurveyQuestion),
});
export type TWorkflowVersionContent = z.infer<typeof ZWorkflowVersionContent>;

/** One row of a workflow's history. */
const ZWorkflowVersionSummary = z.object({
  version: z.number().int(),
  /** The admin who saved it; null for the migration's first version or an author deleted since. */
  author: ZUserRef.nullable(),
  /** The version a restore copied; null for an ordinary save. */
  restoredFrom: z.number().int().nullable(),
  /** Whether it is what runs use now. */
  current: z.boolean(),
  createdAt: z.string(),
});
export type TWorkflowVersionSummary = z.infer<typeof ZWorkflowVersionSummary>;
export const ZWorkflowVersionList = z.array(ZWorkflowVersionSummary);

/** GET /api/admin/workflows/{id}/versions/{version}: one version with what it kept. */
export const ZWorkflowVersion = ZWorkflowVersionSummary.extend({ content: ZWorkflowVersionContent });
export type TWorkflowVersion = z.infer<typeof ZWorkflowVersion>;

export const ZWorkflowVersionParams = z.object({
  id: z.uuid(),
  version: z.coerce.number().int().min(1).max(1_000_000),
});

/** The history's paging: newest first, at most 200 a page. */
export const ZWorkflowVersionListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

type TQuestionChange =
  | { kind: 'added'; id: string; after: z.infer<typeof ZSurveyQuestion> }
  | { kind: 'removed'; id: string; before: z.infer<typeof ZSurveyQuestion> }
  | {
      kind: 'changed';
      id: string;
      before: z.infer<typeof ZSurveyQuestion>;
      after: z.infer<typeof ZSurveyQuestion>;
    };

export interface TVersionDiff {
  /** The fields other than the questions whose values differ, in VERSIONED_FIELDS order. */
  fields: Exclude<TVersionedField, 'surveyQuestions'>[];
  /** The questions added, removed or changed, matched by their id, in the newer version's order. */
  questions: TQuestionChange[];
}

/**
 * Whether two JSON values are the same, whatever the order of their keys (jsonb hands objects back in its own
 * order); a key whose value is undefined counts as absent, as in JSON.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  const entries = (o: object) => Object.entries(o).filter(([, v]) => v !== undefined);
  const left = entries(a);
  const right = new Map(entries(b));
  return left.length === right.size && left.every(([k, v]) => right.has(k) && sameJson(v, right.get(k)));
}

/** What changed from `before` to `after`: fields by name, questions by id (added, removed, changed). */
export function diffVersions(before: TWorkflowVersionContent, after: TWorkflowVersionContent): TVersionDiff {
  const fields = VERSIONED_FIELDS.filter(
    (f): f is Exclude<TVersionedField, 'surveyQuestions'> =>
      f !== 'surveyQuestions' && !sameJson(before[f], after[f]),
  );
  const old = new Map(before.surveyQuestions.map((q) => [q.id, q]));
  const kept = new Set(after.surveyQuestions.map((q) => q.id));
  const questions: TQuestionChange[] = [];
  for (const q of after.surveyQuestions) {
    const was = old.get(q.id);
    if (!was) questions.push({ kind: 'added', id: q.id, after: q });
    else if (!sameJson(was, q)) questions.push({ kind: 'changed', id: q.id, before: was, after: q });
  }
  for (const q of before.surveyQuestions) {
    if (!kept.has(q.id)) questions.push({ kind: 'removed', id: q.id, before: q });
  }
  return { fields, questions };
}
