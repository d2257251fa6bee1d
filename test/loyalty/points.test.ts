import { describe, expect, it } from 'vitest';
import { pointsFor } from '../../server/loyalty/ledger/earning.js';

describe('pointsFor: floor(amount x pointsPerCurrency x multiplier), exact', () => {
  it.each([
    [12.345, 10, 1.5, 185],
    [9.99999, 10, 1, 99],
    [0.99999, 1, 1, 0],
    [2.00005, 10_000, 1, 20_000],
    [10, 3, 1.1, 33],
    [0.1, 3, 1.1, 0],
    [19.99, 100, 1.25, 2498],
    [1e-7, 10, 1, 0],
    [1_000_000_000, 1000, 3, 3_000_000_000_000],
  ])('%d x %d x %d = %d points', (amount, rate, multiplier, points) => {
    expect(pointsFor(amount, rate, multiplier)).toBe(points);
  });
});

describe('pointsFor beyond the points limit', () => {
  it('answers exactly up to Number.MAX_SAFE_INTEGER and Infinity past it, never a rounded count', () => {
    expect(pointsFor(900_719_925_474.0991, 10_000, 1)).toBe(Number.MAX_SAFE_INTEGER);
    expect(pointsFor(900_719_925_474.0992, 10_000, 1)).toBe(Infinity);
    expect(pointsFor(1e15, 100_000, 10)).toBe(Infinity);
  });
});
