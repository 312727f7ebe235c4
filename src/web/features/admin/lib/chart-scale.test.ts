import { describe, expect, it } from 'vitest';
import { axisTicks, niceStep } from './chart-scale';

describe('chart axis', () => {
  it('steps by 1, 2 or 5 times a power of ten', () => {
    expect([0.5, 1, 1.25, 3, 7, 12, 40, 260].map(niceStep)).toEqual([1, 1, 2, 5, 10, 20, 50, 500]);
  });
  it('starts at 0 and reaches the largest value in whole, even steps', () => {
    expect(axisTicks(0)).toEqual([0, 1, 2, 3, 4]);
    expect(axisTicks(1)).toEqual([0, 1, 2, 3, 4]);
    expect(axisTicks(5)).toEqual([0, 2, 4, 6]);
    expect(axisTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(axisTicks(1234)).toEqual([0, 500, 1000, 1500]);
  });
});
