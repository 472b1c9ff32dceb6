import { sanitizeAmountInput } from '@freight/contracts/money';
import { Input } from 'antd';

/**
 * SPEC section 5: keeps digits and one decimal point, collapses repeated dots, two decimals. With
 * `allowNegative` a leading minus is kept (manual deductions).
 */
export function AmountInput({
  id,
  value,
  onChange,
  allowNegative,
  suffix,
  decimals = 2,
}: {
  /** Set by the form item, so its label points at this input. */
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  allowNegative?: boolean;
  suffix?: string;
  decimals?: number;
}) {
  return (
    <Input
      id={id}
      value={value}
      inputMode="decimal"
      suffix={suffix}
      onChange={(e) => {
        const raw = e.target.value;
        const negative = Boolean(allowNegative) && raw.trim().startsWith('-');
        onChange?.(`${negative ? '-' : ''}${sanitizeAmountInput(raw, decimals)}`);
      }}
    />
  );
}
