import { describe, expect, it } from 'vitest';
import { fileKindOf, formatFileSize, isVideoUrl, resultDownloadUrl } from './file-meta';

describe('formatFileSize', () => {
  it('shows bytes under 1 KB as whole bytes', () => {
    expect(formatFileSize(0, 'en-US')).toBe('0 B');
    expect(formatFileSize(1023, 'en-US')).toBe('1023 B');
  });
  it('shows kilobytes and megabytes with two decimals', () => {
    expect(formatFileSize(1024, 'en-US')).toBe('1.00 KB');
    expect(formatFileSize(1536, 'en-US')).toBe('1.50 KB');
    expect(formatFileSize(1024 * 1024 - 1, 'en-US')).toBe('1,024.00 KB');
    expect(formatFileSize(1024 * 1024, 'en-US')).toBe('1.00 MB');
    expect(formatFileSize(10 * 1024 * 1024, 'en-US')).toBe('10.00 MB');
  });
  it('uses the reader decimal separator', () => {
    expect(formatFileSize(2560, 'es-ES')).toBe('2,50 KB');
  });
});

describe('fileKindOf', () => {
  it('tells the spreadsheet, csv and pdf formats apart, whatever the case', () => {
    expect(fileKindOf('report.XLSX')).toBe('xlsx');
    expect(fileKindOf('old.xls')).toBe('xls');
    expect(fileKindOf('data.csv')).toBe('csv');
    expect(fileKindOf('invoice.pdf')).toBe('pdf');
  });
  it('knows images and videos, and falls back to other', () => {
    expect(fileKindOf('chart.png')).toBe('image');
    expect(fileKindOf('https://cdn.example/clip.mp4?token=1')).toBe('video');
    expect(fileKindOf('notes.txt')).toBe('other');
    expect(fileKindOf(null)).toBe('other');
    expect(isVideoUrl('https://cdn.example/a.webm')).toBe(true);
    expect(isVideoUrl('https://cdn.example/a.pdf')).toBe(false);
  });
});

describe('resultDownloadUrl', () => {
  const id = '7f9c2a56-1c1b-4c55-9b1e-2f0b8d3f6a10';
  it('points at our own copy when the file is stored here and there is no outside URL', () => {
    expect(resultDownloadUrl({ id, resultPath: 'results/x.csv', outputUrl: null })).toBe(`/result/${id}`);
  });
  it('prefers the outside URL, and is null when there is neither', () => {
    expect(resultDownloadUrl({ id, resultPath: 'results/x.csv', outputUrl: 'https://x.example/f' })).toBe(
      'https://x.example/f',
    );
    expect(resultDownloadUrl({ id, resultPath: null, outputUrl: null })).toBeNull();
  });
});
