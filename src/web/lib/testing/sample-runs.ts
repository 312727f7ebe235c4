import type { TExecution } from '#shared/contract/executions';

/** A completed run whose result is a stored CSV file, as the run page and the history receive it. */
export const FILE_RUN: TExecution = {
  id: '6f1d2a40-0000-4000-8000-000000000001',
  workflowId: null,
  workflowName: null,
  status: 'completed',
  origin: 'web',
  creditsUsed: 1,
  outputType: 'file',
  outputUrl: null,
  outputFilename: 'ventas.csv',
  outputSize: 2048,
  outputData: null,
  resultPath: '6f1d2a40-0000-4000-8000-000000000002.csv',
  fileExpiresAt: '2026-12-24T10:00:00.000Z',
  fileExpired: false,
  errorCode: null,
  workflowMessage: null,
  errorMessage: null,
  endReason: null,
  progressMessage: null,
  executionTimeMs: 10,
  creditsRefunded: 0,
  createdAt: '2026-11-24T10:00:00.000Z',
  completedAt: '2026-11-24T10:00:01.000Z',
};

/** The same run once retention removed its file. */
export const EXPIRED_FILE_RUN: TExecution = { ...FILE_RUN, resultPath: null, fileExpired: true };
