import { describe, expect, it } from 'vitest';
import { productSaveBody, serviceLevelLabel, TRUCK_SERVICE_LEVELS } from './truck-products.ts';

const CHINESE = /[\u4e00-\u9fff]/;

describe('truck service levels', () => {
  it('names every level in both languages, Chinese in Chinese and English in English', () => {
    expect(Object.keys(TRUCK_SERVICE_LEVELS)).toEqual(['standard', 'economy', 'expedited', 'guaranteed']);
    for (const level of Object.keys(TRUCK_SERVICE_LEVELS)) {
      expect(serviceLevelLabel(level, 'zh-CN'), level).toMatch(CHINESE);
      expect(serviceLevelLabel(level, 'en-US'), level).not.toMatch(CHINESE);
      expect(serviceLevelLabel(level, 'en-US'), level).not.toBe(level);
    }
    expect(serviceLevelLabel('economy', 'zh-CN')).toBe('经济');
    expect(serviceLevelLabel('economy', 'en-US')).toBe('Economy');
  });

  it('shows a level typed before the list existed as it was typed, and no inherited key as a level', () => {
    expect(serviceLevelLabel('White glove', 'zh-CN')).toBe('White glove');
    expect(serviceLevelLabel('White glove', 'en-US')).toBe('White glove');
    expect(serviceLevelLabel('toString', 'en-US')).toBe('toString');
    expect(serviceLevelLabel('', 'en-US')).toBe('');
  });

  it('stores the key: a new product is standard unless it says otherwise', () => {
    const product = {
      code: 'P1',
      name: '产品',
      nameEn: 'Product',
      carrier: 'Carrier',
      mode: 'LTL',
      transitDaysMin: 1,
      transitDaysMax: 2,
    };
    const parsed = productSaveBody.safeParse(product);
    expect(parsed.success && parsed.data.serviceLevel).toBe('standard');
  });
});
