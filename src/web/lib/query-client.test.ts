import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { createQueryClient } from './query-client';
import { queryKeys } from './query-keys';

const user = { id: 'u1', email: 'ana@example.com', fullName: 'Ana', credits: 5, isAdmin: false };
const failing = (status: number) => () => Promise.reject(new ApiError('no', status, undefined, null));

function signedIn() {
  const client = createQueryClient();
  client.setQueryData(queryKeys.me, user);
  return client;
}

describe('the query client', () => {
  it('forgets the signed-in user when a query is answered 401', async () => {
    const client = signedIn();
    await expect(
      client.fetchQuery({ queryKey: ['/api/executions'], queryFn: failing(401) }),
    ).rejects.toThrow();
    expect(client.getQueryData(queryKeys.me)).toBeNull();
  });

  it('forgets the signed-in user when a mutation is answered 401', async () => {
    const client = signedIn();
    const mutation = client.getMutationCache().build(client, { mutationFn: failing(401) });
    await expect(mutation.execute(undefined)).rejects.toThrow();
    expect(client.getQueryData(queryKeys.me)).toBeNull();
  });

  it.each([400, 403, 404, 500])('keeps the user after a %i', async (status) => {
    const client = signedIn();
    await expect(client.fetchQuery({ queryKey: ['/api/x'], queryFn: failing(status) })).rejects.toThrow();
    const mutation = client.getMutationCache().build(client, { mutationFn: failing(status) });
    await expect(mutation.execute(undefined)).rejects.toThrow();
    expect(client.getQueryData(queryKeys.me)).toEqual(user);
  });

  it('keeps the user when the network fails (no answer is not a signed-out answer)', async () => {
    const client = signedIn();
    const offline = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(client.fetchQuery({ queryKey: ['/api/x'], queryFn: offline })).rejects.toThrow();
    expect(client.getQueryData(queryKeys.me)).toEqual(user);
  });
});
