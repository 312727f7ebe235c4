import { describe, expect, it } from 'vitest';
import type { TAdminWorkflowDetail } from '#shared/contract/admin.js';
import { chatbotWorkflowInput, useAdminApp } from '#server/test/test-data.js';

const { admin, adminId } = useAdminApp();

const survey = {
  interactionType: 'survey' as const,
  welcomeMessage: null,
  aiPrompt: null,
};

describe('survey questions sent with plain-string text', () => {
  it('are accepted on create and stored with the same text in both languages', async () => {
    const res = await admin.post(
      '/api/admin/workflows',
      chatbotWorkflowInput(adminId(), {
        ...survey,
        surveyQuestions: [
          { id: 'q1', question: 'Company name?', type: 'text', options: [] },
          { id: 'q2', question: { es: 'Canal', en: 'Channel' }, type: 'select', options: ['Email', 'Phone'] },
        ],
      }),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json() as TAdminWorkflowDetail;
    expect(body.surveyQuestions.map((q) => q.question)).toEqual([
      { es: 'Company name?', en: 'Company name?' },
      { es: 'Canal', en: 'Channel' },
    ]);
    const stored = (await admin.get(`/api/admin/workflows/${body.id}`)).json() as TAdminWorkflowDetail;
    expect(stored.surveyQuestions[0]?.question).toEqual({ es: 'Company name?', en: 'Company name?' });
  });

  it('are accepted on update, and a blank one is still refused', async () => {
    const created = (
      await admin.post(
        '/api/admin/workflows',
        chatbotWorkflowInput(adminId(), {
          ...survey,
          surveyQuestions: [{ id: 'q1', question: { es: 'Nombre', en: 'Name' }, type: 'text', options: [] }],
        }),
      )
    ).json() as TAdminWorkflowDetail;

    const res = await admin.patch(`/api/admin/workflows/${created.id}`, {
      surveyQuestions: [{ id: 'q1', question: '¿Cuántas personas?', type: 'number', options: [] }],
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as TAdminWorkflowDetail).surveyQuestions).toEqual([
      expect.objectContaining({
        id: 'q1',
        type: 'number',
        question: { es: '¿Cuántas personas?', en: '¿Cuántas personas?' },
      }),
    ]);

    const blank = await admin.patch(`/api/admin/workflows/${created.id}`, {
      surveyQuestions: [{ id: 'q1', question: '   ', type: 'text', options: [] }],
    });
    expect(blank.statusCode).toBe(400);
  });
});
