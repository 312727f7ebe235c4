import { describe, expect, it } from 'vitest';
import { RUN_FAILURE_CODES } from '../contract/executions.js';
import { RUN_FAILURE_TEXTS, runFailureText, workflowMessageOf } from './run-failures.js';

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('run failure texts', () => {
  it('word every code in both languages with the same placeholders', () => {
    for (const key of [...RUN_FAILURE_CODES, 'workflowSaid'] as const) {
      expect(RUN_FAILURE_TEXTS.en[key].length).toBeGreaterThan(10);
      expect(RUN_FAILURE_TEXTS.es[key].length).toBeGreaterThan(10);
      expect(placeholders(RUN_FAILURE_TEXTS.es[key])).toEqual(placeholders(RUN_FAILURE_TEXTS.en[key]));
    }
  });

  it("add the workflow's own words only for a failure the workflow reported", () => {
    expect(workflowMessageOf('workflow_failed', 'No stock')).toBe('No stock');
    expect(
      workflowMessageOf('workflow_refused', 'The workflow service refused the run (HTTP 403)'),
    ).toBeNull();
    expect(runFailureText('en', 'workflow_failed', 'No stock')).toBe(
      'The workflow could not finish your request. The workflow said: No stock',
    );
    expect(runFailureText('es', 'timeout')).toBe('El workflow no envió un resultado a tiempo.');
  });
});
