import { describe, expect, it } from 'vitest';
import { webhookHeaders } from '../../../src/server/providers/webhooks/signature';
import { binaryPropertyFor, conversationOf, namedAnswers, parseFlujoCall } from '../lib/fields';
import { verifyFlujoSignature } from '../lib/signature';

const SECRET = `whsec_${Buffer.from('flujo-test-secret-32-bytes-long!').toString('base64')}`;
const OLD = `whsec_${Buffer.from('the-previous-secret-of-this-flow').toString('base64')}`;
const NOW = 1_795_000_000;
const body = JSON.stringify({ execution_id: 'r1', responses: [{ question: 'Name?', answer: 'Ana\nLópez' }] });

describe("the trigger's signature check (Flujo's own signer signs)", () => {
  it('accepts a call Flujo signed, and the same call signed with both secrets during a rotation', () => {
    const signed = webhookHeaders([SECRET], 'msg_r1', NOW, body);
    expect(verifyFlujoSignature([SECRET], signed, Buffer.from(body), NOW)).toBe(true);
    const rotating = webhookHeaders([SECRET, OLD], 'msg_r1', NOW, body);
    expect(verifyFlujoSignature([OLD], rotating, body, NOW + 10)).toBe(true);
  });

  it('refuses a changed body, another secret, a stale or future timestamp, and a missing header', () => {
    const signed = webhookHeaders([SECRET], 'msg_r1', NOW, body);
    expect(verifyFlujoSignature([SECRET], signed, body.replace('Ana', 'Eve'), NOW)).toBe(false);
    expect(verifyFlujoSignature([OLD], signed, body, NOW)).toBe(false);
    expect(verifyFlujoSignature([SECRET], signed, body, NOW + 301)).toBe(false);
    expect(verifyFlujoSignature([SECRET], signed, body, NOW - 301)).toBe(false);
    expect(verifyFlujoSignature([SECRET], { ...signed, 'webhook-id': '' }, body, NOW)).toBe(false);
    // Another message's id makes the same signature wrong: the id is part of what is signed.
    expect(verifyFlujoSignature([SECRET], { ...signed, 'webhook-id': 'msg_r2' }, body, NOW)).toBe(false);
    const v2 = { ...signed, 'webhook-signature': signed['webhook-signature']!.replace('v1,', 'v2,') };
    expect(verifyFlujoSignature([SECRET], v2, body, NOW)).toBe(false);
    expect(verifyFlujoSignature([], signed, body, NOW)).toBe(false);
  });
});

const call = (responses: Array<{ question: string; answer: unknown }>, language: 'es' | 'en' = 'es') =>
  parseFlujoCall({
    workflow_id: 'w1',
    execution_id: 'r1',
    user_id: 'u1',
    secret_token: 'tok',
    responses,
    language,
    callback_url: 'https://flujo.example.com/api/workflow-result',
  })!;

const QUESTIONS = [
  { id: 'company', type: 'text', question: { en: 'Company name', es: 'Nombre de la empresa' } },
  { id: 'topics', type: 'checkbox', question: { en: 'Topics', es: 'Temas' } },
  { id: 'sales-file', type: 'file', question: { en: 'Your CSV file', es: 'Tu archivo CSV' } },
];

describe('named answers', () => {
  it('names each answer by its question id, whatever language the customer read', () => {
    const file = {
      filename: 'ventas.csv',
      content_type: 'text/csv; charset=utf-8',
      size: 12,
      url: 'https://x/f',
    };
    const named = namedAnswers(
      call([
        { question: 'Nombre de la empresa', answer: 'Acme, S.L.' },
        { question: 'temas ', answer: ['Precio', 'Rapidez'] },
        { question: 'Tu archivo CSV', answer: file },
      ]),
      QUESTIONS,
    );
    expect(named.answers).toEqual({
      company: 'Acme, S.L.',
      topics: ['Precio', 'Rapidez'],
      'sales-file': {
        filename: 'ventas.csv',
        contentType: 'text/csv; charset=utf-8',
        size: 12,
        binaryProperty: 'sales_file',
      },
    });
    expect(named.files).toEqual([{ property: 'sales_file', file }]);
    expect(named.unknown).toEqual([]);
    const english = namedAnswers(call([{ question: 'Company name', answer: 'Acme' }], 'en'), QUESTIONS);
    expect(english.answers).toEqual({ company: 'Acme' });
  });

  it('lists the questions it does not know instead of guessing, and keeps a chat as its turns', () => {
    const named = namedAnswers(call([{ question: 'A new question', answer: 'x' }]), QUESTIONS);
    expect(named).toEqual({ answers: {}, files: [], unknown: ['A new question'] });
    expect(conversationOf(call([{ question: '¿Para quién?', answer: 'Para Ana' }]))).toEqual([
      { assistant: '¿Para quién?', person: 'Para Ana' },
    ]);
  });

  it('makes binary property names n8n accepts, and refuses bodies that are not a Flujo call', () => {
    expect(binaryPropertyFor('sales-file')).toBe('sales_file');
    expect(binaryPropertyFor('1st')).toBe('q_1st');
    expect(parseFlujoCall({ execution_id: 'r1' })).toBeNull();
    expect(parseFlujoCall('text')).toBeNull();
    expect(parseFlujoCall({ ...call([]), language: 'fr' })).toBeNull();
  });
});
