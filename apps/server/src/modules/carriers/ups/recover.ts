import { z } from 'zod';
import { CarrierCallError, type CarrierConnection } from '../connection.ts';
import type { CarrierLabel, CarrierLabelFormat, ParcelBooking } from '../parcel.ts';
import { credentialsOf, type UpsClient, upsClient } from './client.ts';

/**
 * UPS's Label Recovery, asked by the booking's reference and the account's shipper number: the labels
 * of a shipment UPS already made for this booking, which is how a purchase whose answer never came
 * (a timeout, a 5xx) is found before it is tried again. Requests follow
 * test/fixtures/carriers/ups/Shipping.yaml.
 */

const RECOVERY_VERSION = 'v1';
const RECOVERY_PATH = `/api/labels/${RECOVERY_VERSION}/recovery`;

const FORMATS: Record<string, CarrierLabelFormat> = { GIF: 'gif', PNG: 'png', ZPL: 'zpl', PDF: 'pdf' };

const labelResult = z.object({
  TrackingNumber: z.string().min(1).optional(),
  LabelImage: z
    .object({ LabelImageFormat: z.object({ Code: z.string() }), GraphicImage: z.string() })
    .optional(),
});

const recoveryAnswer = z.object({
  LabelRecoveryResponse: z.object({
    ShipmentIdentificationNumber: z.string().min(1).optional(),
    // UPS writes a one-element list as the element itself.
    LabelResults: z.union([z.array(labelResult), labelResult.transform((one) => [one])]),
  }),
});

/**
 * The shipment UPS made for this booking, with its labels; null when UPS has none under its reference.
 * A 400 or 404 is UPS saying it found nothing to recover.
 */
export async function upsRecover(
  connection: CarrierConnection,
  booking: Pick<ParcelBooking, 'reference' | 'labelFormat'>,
  client: UpsClient = upsClient,
): Promise<CarrierLabel | null> {
  const accountNumber = credentialsOf(connection).accountNumber;
  const answer = await client.call(connection, {
    method: 'POST',
    path: RECOVERY_PATH,
    body: {
      json: {
        LabelRecoveryRequest: {
          Request: { RequestOption: 'Non_Validate' },
          // Without a specification UPS recovers the GIF, which the portal sets on a PDF page. The
          // document lists ZPL among the codes but gives the code a minimum length of four.
          ...(booking.labelFormat === 'zpl'
            ? {
                LabelSpecification: {
                  LabelImageFormat: { Code: 'ZPL' },
                  LabelStockSize: { Height: '6', Width: '4' },
                },
              }
            : {}),
          // The document requires this list (it is for Roadie's numbers); a package shipment has none.
          TrackingNumbers: [],
          ReferenceValues: {
            ReferenceNumber: { Value: booking.reference },
            ShipperNumber: accountNumber,
          },
        },
      },
    },
    answer: recoveryAnswer,
    settle: (status) => (status === 400 || status === 404 ? null : undefined),
  });
  if (!answer) return null;
  const results = answer.LabelRecoveryResponse.LabelResults.filter((r) => r.TrackingNumber && r.LabelImage);
  const first = results[0];
  if (!first?.TrackingNumber) return null;
  return {
    trackingNumbers: results.map((r) => r.TrackingNumber as string),
    shipmentId: answer.LabelRecoveryResponse.ShipmentIdentificationNumber ?? first.TrackingNumber,
    label: results.map((r) => {
      const image = r.LabelImage as NonNullable<typeof r.LabelImage>;
      const format = FORMATS[image.LabelImageFormat.Code.trim().toUpperCase()];
      if (!format)
        throw new CarrierCallError(
          'malformed',
          `UPS recovered a label of ${r.TrackingNumber} we cannot read`,
          false,
        );
      const compact = image.GraphicImage.replace(/\s/g, '');
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact))
        throw new CarrierCallError('malformed', `the label of ${r.TrackingNumber} is not base64`, false);
      return { format, bytes: Buffer.from(compact, 'base64') };
    }),
    chargedCents: null,
    currency: null,
  };
}
