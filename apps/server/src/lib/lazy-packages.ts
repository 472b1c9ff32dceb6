import { createRequire } from 'node:module';
import type ExcelJS from 'exceljs';
import type nodemailerPackage from 'nodemailer';
import type zipcodeData from 'zipcodes';

/**
 * Packages a start does not need, loaded the first time a request uses them: the spreadsheet library
 * and the ZIP code table cost about half a second of every start when loaded up front. Each is a
 * CommonJS package, so `require` gives the very module an `import` would.
 */
const load = createRequire(import.meta.url);

function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= load(name) as T;
    return loaded;
  };
}

/** exceljs: workbooks built and read. */
export const excel = onFirstUse<typeof ExcelJS>('exceljs');

/** nodemailer, when an SMTP server is configured. */
export const nodemailer = onFirstUse<typeof nodemailerPackage>('nodemailer');

/** The US ZIP code table. */
export const zipcodes = onFirstUse<typeof zipcodeData>('zipcodes');
