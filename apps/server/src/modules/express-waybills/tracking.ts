import { type Language, ResultCode } from '@freight/contracts/api';
import {
  TRACKING_CODES,
  TRACKING_STATUS,
  type TrackingCode,
  trackingPath,
  type WaybillStatus,
  waybillMachine,
} from '@freight/contracts/express-waybills';
import { storableText } from '@freight/contracts/fields';
import { type MessageKey, translate } from '@freight/contracts/messages';
import { and, count, desc, eq, inArray, like, max, or, type SQL } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import type { DbOrTx } from '../../db/client.ts';
import { AppError, badField, conflict, forbidden } from '../../lib/errors.ts';
import { buildWorkbook, importCell, readSheetRows } from '../../lib/xlsx.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { organisationScope, visibleOrganisationIds } from '../customers/service.ts';
import { expressCarriers } from '../express-channels/carriers.ts';
import { expressTrackingEvents, expressWaybills } from './schema.ts';
import { addEvent, noticeWaybill, visibleWaybill, type WaybillRow } from './service.ts';

type Viewer = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId' | 'grants'>;
type Source = 'staff' | 'import' | 'carrier';

/** The button staff need to record where a parcel is. */
const UPDATE_BUTTON = 'express-tracking:update';
/** Waybills with no parcel on its way: nothing is scanned until paid, nothing after it is voided. */
const NOT_TRAVELLING: readonly WaybillStatus[] = ['unpaid', 'cancelled', 'refunded'];
const MAX_ROWS = 10_000;

function requireUpdater(caller: Viewer) {
  if (caller.identity !== 'employee' || !caller.grants.has(UPDATE_BUTTON)) throw forbidden();
}

interface Scan {
  code: TrackingCode;
  at: Date;
  location: string;
  note: string;
}

/** A scan a carrier reported. */
export interface CarrierScan extends Scan {
  /**
   * The kind was worked out by the portal (the carrier's event named none): the scan is recorded once
   * at its moment whatever kind it is given later, since a later answer may see the same event
   * differently.
   */
  oncePerMoment?: boolean;
}

/**
 * Records a scan of a waybill and, when it is the newest scan, moves the waybill to the status it shows
 * through the staff moves of the machine, each on the waybill's timeline. A scan recorded already (same
 * moment, same kind) changes nothing. The waybill row is locked, so scans arriving together apply in turn.
 */
async function recordScan(
  tx: DbOrTx,
  waybillRef: Pick<WaybillRow, 'tenantId' | 'id'>,
  scan: Scan,
  source: Source,
  actorId: number | null,
  oncePerMoment = false,
): Promise<{ added: boolean; status: WaybillStatus }> {
  const [waybill] = await tx
    .select()
    .from(expressWaybills)
    .where(and(eq(expressWaybills.tenantId, waybillRef.tenantId), eq(expressWaybills.id, waybillRef.id)))
    .for('update');
  if (!waybill) throw new AppError(ResultCode.NotFound, 'error.notFound');
  if (NOT_TRAVELLING.includes(waybill.status))
    throw conflict('expressTracking.notTravelling', { waybillNo: waybill.waybillNo });
  if (oncePerMoment) {
    const [seen] = await tx
      .select({ id: expressTrackingEvents.id })
      .from(expressTrackingEvents)
      .where(
        and(
          eq(expressTrackingEvents.tenantId, waybill.tenantId),
          eq(expressTrackingEvents.waybillId, waybill.id),
          eq(expressTrackingEvents.at, scan.at),
          eq(expressTrackingEvents.source, source),
        ),
      )
      .limit(1);
    if (seen) return { added: false, status: waybill.status };
  }
  const [latest] = await tx
    .select({ at: max(expressTrackingEvents.at) })
    .from(expressTrackingEvents)
    .where(
      and(
        eq(expressTrackingEvents.tenantId, waybill.tenantId),
        eq(expressTrackingEvents.waybillId, waybill.id),
      ),
    );
  const inserted = await tx
    .insert(expressTrackingEvents)
    .values({ tenantId: waybill.tenantId, waybillId: waybill.id, ...scan, source, actorId })
    .onConflictDoNothing()
    .returning({ id: expressTrackingEvents.id });
  if (inserted.length === 0) return { added: false, status: waybill.status };
  const target = TRACKING_STATUS[scan.code];
  // A late scan of an earlier moment is kept for the record but does not turn the waybill back.
  if (!target || (latest?.at && scan.at < latest.at)) return { added: true, status: waybill.status };
  const path = trackingPath(waybill.status, target) ?? [];
  let status = waybill.status;
  const note = [scan.location, scan.note].filter(Boolean).join(' · ');
  for (const action of path) {
    const move = waybillMachine.find(status, action, 'staff');
    if (!move) break;
    await tx
      .update(expressWaybills)
      .set({ status: move.to })
      .where(and(eq(expressWaybills.tenantId, waybill.tenantId), eq(expressWaybills.id, waybill.id)));
    await addEvent(tx, waybill, action, status, move.to, actorId, note);
    status = move.to;
  }
  if (status !== waybill.status) await noticeWaybill(tx, waybill, status, note);
  return { added: true, status };
}

/** `tracking/add`: staff record a scan of a waybill they may see. */
export async function addTrackingEventFor(
  db: DbOrTx,
  caller: Viewer,
  input: { id: number; code: TrackingCode; at?: Date; location: string; note: string },
) {
  requireUpdater(caller);
  const waybill = await visibleWaybill(db, caller, input.id);
  const scan = { code: input.code, at: input.at ?? new Date(), location: input.location, note: input.note };
  const { status } = await db.transaction((tx) => recordScan(tx, waybill, scan, 'staff', caller.id));
  return { id: waybill.id, status };
}

/**
 * Asks the channel's carrier provider for its scans of a waybill and records the new ones, as staff
 * scans are recorded. The built-in provider has none of its own: its scans are the ones staff record.
 */
export async function syncCarrierScans(db: DbOrTx, waybill: WaybillRow) {
  if (NOT_TRAVELLING.includes(waybill.status)) return 0;
  // The carrier that has the parcel is the one it was booked with, kept on the waybill.
  const provider = expressCarriers.find(waybill.channel.provider);
  if (!provider) return 0;
  const events = await provider.track(db, {
    tenantId: waybill.tenantId,
    orderNo: waybill.waybillNo,
    productId: waybill.channelId,
    reference: waybill.carrierReference,
  });
  let added = 0;
  for (const event of events) {
    const code = (TRACKING_CODES as readonly string[]).includes(event.code)
      ? (event.code as TrackingCode)
      : 'in_transit';
    const scan = { code, at: event.at, location: '', note: storableText(event.note, 500) };
    const result = await db.transaction((tx) => recordScan(tx, waybill, scan, 'carrier', null));
    if (result.added) added++;
  }
  return added;
}

/**
 * Records the scans a waybill's carrier account reported (the tracking poll, Karrio's webhook), oldest
 * first, each exactly as a staff scan is recorded: once, the waybill following the newest through the
 * staff moves, the booking user told of a delivery or an exception. Each scan commits on its own, so
 * a poll and a webhook reporting together apply in turn. A waybill voided meanwhile takes no more.
 */
export async function recordCarrierScans(
  db: DbOrTx,
  waybill: Pick<WaybillRow, 'tenantId' | 'id'>,
  scans: readonly CarrierScan[],
): Promise<{ added: number; status: WaybillStatus | null }> {
  let added = 0;
  let status: WaybillStatus | null = null;
  const ordered = [...scans].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const { oncePerMoment, ...scan } of ordered) {
    try {
      const result = await db.transaction((tx) =>
        recordScan(tx, waybill, scan, 'carrier', null, oncePerMoment ?? false),
      );
      if (result.added) added++;
      status = result.status;
    } catch (error) {
      if (error instanceof AppError && error.key === 'expressTracking.notTravelling') break;
      throw error;
    }
  }
  return { added, status };
}

const escapeLike = (text: string) => text.replace(/[%_\\]/g, '\\$&');

/** `tracking/list`: the scans of the waybills the caller may see, newest first. */
export async function listTrackingFor(
  db: DbOrTx,
  caller: Viewer,
  query: { page: number; limit: number; keyword?: string; waybillId?: number; code?: TrackingCode },
) {
  if (query.waybillId) await syncCarrierScans(db, await visibleWaybill(db, caller, query.waybillId));
  const scope = await organisationScope(db, caller);
  const keyword = query.keyword ? `${escapeLike(query.keyword.toUpperCase())}%` : null;
  const condition = and(
    eq(expressTrackingEvents.tenantId, caller.tenantId),
    eq(expressWaybills.tenantId, caller.tenantId),
    caller.identity === 'employee'
      ? undefined
      : inArray(expressWaybills.organisationId, visibleOrganisationIds(db, scope)),
    query.waybillId ? eq(expressTrackingEvents.waybillId, query.waybillId) : undefined,
    query.code ? eq(expressTrackingEvents.code, query.code) : undefined,
    keyword
      ? (or(like(expressWaybills.trackingNo, keyword), like(expressWaybills.waybillNo, keyword)) as SQL)
      : undefined,
  );
  const from = and(
    eq(expressWaybills.tenantId, expressTrackingEvents.tenantId),
    eq(expressWaybills.id, expressTrackingEvents.waybillId),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: expressTrackingEvents.id,
        waybillId: expressTrackingEvents.waybillId,
        waybillNo: expressWaybills.waybillNo,
        trackingNo: expressWaybills.trackingNo,
        at: expressTrackingEvents.at,
        code: expressTrackingEvents.code,
        location: expressTrackingEvents.location,
        note: expressTrackingEvents.note,
        source: expressTrackingEvents.source,
        createdAt: expressTrackingEvents.createdAt,
      })
      .from(expressTrackingEvents)
      .innerJoin(expressWaybills, from)
      .where(condition)
      .orderBy(desc(expressTrackingEvents.at), desc(expressTrackingEvents.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(expressTrackingEvents).innerJoin(expressWaybills, from).where(condition),
  ]);
  return {
    list: rows,
    total: total?.n ?? 0,
    page: query.page,
    limit: query.limit,
  };
}

/* ---------- the tracking sheet ---------- */

const COLUMNS = ['trackingNo', 'time', 'code', 'location', 'note'] as const;
const header = (language: Language) =>
  COLUMNS.map((c) => translate(language, `expressTracking.column.${c}` as MessageKey));

/** The import template: the columns in the caller's language and one example row. */
export function trackingTemplate(language: Language) {
  return buildWorkbook([
    {
      name: translate(language, 'expressTracking.sheet'),
      header: header(language),
      rows: [['FP20261125000001', '2026-11-25 09:30', 'picked_up', 'Los Angeles, CA', '']],
      widths: [22, 20, 18, 24, 30],
    },
  ]);
}

const TIME = /^[1-9]\d{3}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:?\d{2})?$/;

/** A code as a sheet may give it: the code itself, or its name in either language. */
function readCode(value: string): TrackingCode | null {
  const text = value.trim().toLowerCase();
  for (const code of TRACKING_CODES)
    if (
      code === text ||
      translate('zh-CN', `expressTracking.code.${code}`).toLowerCase() === text ||
      translate('en-US', `expressTracking.code.${code}`).toLowerCase() === text
    )
      return code;
  return null;
}

/**
 * `tracking/import`: a sheet of scans, every row checked before any is recorded; a bad row records
 * none and the answer names each bad row. Times without a zone are read as UTC.
 */
export async function importTrackingFor(db: DbOrTx, caller: Viewer, bytes: Buffer, language: Language) {
  requireUpdater(caller);
  const fail = (errors: { sheet: string; row: number; message: string }[]) =>
    new AppError(ResultCode.BadInput, 'import.failed', {}, undefined, { errors });
  const t = (key: MessageKey, params?: Record<string, string | number>) => translate(language, key, params);
  // A row's problems, named with the sheet once it is read.
  const problems: { row: number; message: string }[] = [];
  const rows: { row: number; trackingNo: string; scan: Scan }[] = [];
  const takeRow = (row: ExcelJS.Row) => {
    const rowNumber = row.number;
    const cells: string[] = [];
    let time: Date | null = null;
    for (let i = 1; i <= COLUMNS.length; i++) {
      const cell = row.getCell(i);
      // A time column formatted as a date arrives as one; every other cell is text or a number.
      if (i === 2 && cell.value instanceof Date) {
        time = cell.value;
        cells.push('');
        continue;
      }
      const read = importCell(cell);
      if (!read.ok) {
        problems.push({
          row: rowNumber,
          message: t(`import.${read.reason === 'formula' ? 'formula' : 'badCell'}`, { cell: cell.address }),
        });
        return;
      }
      cells.push(read.value === null ? '' : String(read.value).trim());
    }
    const [trackingNo = '', timeText = '', codeText = '', location = '', note = ''] = cells;
    if (cells.every((c) => c === '') && !time) return;
    const bad = (column: (typeof COLUMNS)[number], key: MessageKey, params: Record<string, number> = {}) =>
      problems.push({
        row: rowNumber,
        message: t(key, { field: t(`expressTracking.column.${column}` as MessageKey), ...params }),
      });
    if (!trackingNo) return bad('trackingNo', 'validation.required');
    if (!time) {
      if (!TIME.test(timeText)) return bad('time', 'validation.dateTime');
      const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(timeText) ? timeText : `${timeText.replace(' ', 'T')}Z`;
      time = new Date(zoned);
      if (Number.isNaN(time.getTime())) return bad('time', 'validation.dateTime');
    }
    // A scan is something that happened: a day ahead at most, for time zones.
    if (time.getTime() > Date.now() + 86_400_000) return bad('time', 'expressTracking.future');
    const code = readCode(codeText);
    if (!code) return bad('code', 'expressTracking.unknownCode');
    if (location.length > 100) return bad('location', 'validation.maxLength', { max: 100 });
    if (note.length > 500) return bad('note', 'validation.maxLength', { max: 500 });
    rows.push({
      row: rowNumber,
      trackingNo: trackingNo.toUpperCase(),
      scan: { code, at: time, location: storableText(location, 100), note: storableText(note, 500) },
    });
  };
  // Rows past the limit are not taken; a sheet that goes on below them is refused whole. Both only
  // grow while the sheet is read, so once they hold the rest of it is not read.
  let lastRow = 0;
  const full = () => rows.length + problems.length >= MAX_ROWS;
  const tooMany = () => full() && lastRow - 1 > MAX_ROWS;
  const read = await readSheetRows(bytes, (row) => {
    lastRow = Math.max(lastRow, row.number);
    if (row.number !== 1 && row.hasValues && !full()) takeRow(row);
    return tooMany() ? 'stop' : undefined;
  });
  if (!read) throw badField('file', 'import.notXlsx');
  const sheet = read.sheet;
  if (sheet === null) throw fail([{ sheet: '', row: 0, message: t('import.empty') }]);
  if (tooMany()) throw fail([{ sheet, row: 0, message: t('import.tooMany', { max: MAX_ROWS }) }]);
  const errors = problems.map(({ row, message }) => ({ sheet, row, message }));
  if (rows.length === 0 && errors.length === 0) throw fail([{ sheet, row: 0, message: t('import.empty') }]);

  const numbers = [...new Set(rows.map((r) => r.trackingNo))];
  const waybills = numbers.length
    ? await db
        .select()
        .from(expressWaybills)
        .where(
          and(eq(expressWaybills.tenantId, caller.tenantId), inArray(expressWaybills.trackingNo, numbers)),
        )
    : [];
  const byNumber = new Map(waybills.map((w) => [w.trackingNo, w]));
  for (const r of rows) {
    const waybill = byNumber.get(r.trackingNo);
    if (!waybill)
      errors.push({
        sheet,
        row: r.row,
        message: t('expressTracking.unknownWaybill', { trackingNo: r.trackingNo }),
      });
    else if (NOT_TRAVELLING.includes(waybill.status))
      errors.push({
        sheet,
        row: r.row,
        message: t('expressTracking.notTravelling', { waybillNo: waybill.waybillNo }),
      });
  }
  if (errors.length > 0) throw fail(errors.sort((a, b) => a.row - b.row));

  // Every row or none: one transaction, scans of each waybill in time order.
  const ordered = [...rows].sort((a, b) => a.scan.at.getTime() - b.scan.at.getTime() || a.row - b.row);
  let imported = 0;
  await db.transaction(async (tx) => {
    for (const r of ordered) {
      const waybill = byNumber.get(r.trackingNo) as WaybillRow;
      const { added } = await recordScan(tx, waybill, r.scan, 'import', caller.id);
      if (added) imported++;
    }
  });
  return { imported, skipped: rows.length - imported };
}
