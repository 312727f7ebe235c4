import { describe, expect, it } from 'vitest';
import { readTranscript, transcriptResponses } from './transcript.js';

describe('transcriptResponses', () => {
  it('pairs each user message with the assistant message before it, without the completion marker', () => {
    expect(
      transcriptResponses([
        { role: 'assistant', content: 'Hi! What is your business?' },
        { role: 'user', content: 'A bakery' },
        { role: 'assistant', content: 'All set. [CONVERSATION_COMPLETE]' },
        { role: 'user', content: 'One more thing' },
      ]),
    ).toEqual([
      { question: 'Hi! What is your business?', answer: 'A bakery' },
      { question: 'All set.', answer: 'One more thing' },
    ]);
  });
  it('gives nothing before anything was said', () => {
    expect(transcriptResponses(readTranscript(null))).toEqual([]);
  });
});

describe('readTranscript', () => {
  it('refuses what is not a transcript', () => {
    expect(() => readTranscript([{ question: 'q', answer: 'a' }])).toThrow(/not a transcript|other than/);
  });
});
