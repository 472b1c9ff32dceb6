import { expect, test } from '@playwright/test';
import { api, bookPaidOrder, screenshotDir, session, switchLanguage } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

test('staff raise a surcharge; the customer disputes it by work order; the refund and the surcharge show in the ledger', async ({
  browser,
}) => {
  // The whole dispute, by two people in both languages: over a minute on a slow machine.
  test.setTimeout(120_000);
  const customer = await browser.newPage();
  // Both users signed in in earlier specs: their sessions are reused (sign-in codes are one a minute).
  await session(customer, 'customer@example.com');
  const order = await bookPaidOrder(customer);

  const staff = await (
    await browser.newContext({
      baseURL: new URL(customer.url()).origin,
      viewport: { width: 1440, height: 900 },
    })
  ).newPage();
  await session(staff, 'admin@example.com');
  for (const action of ['approve', 'pickup', 'depart', 'deliver'])
    await api(staff, '/admin/order/transition', { id: order.id, action });

  // Staff raise a reweigh bill; the form names what a reweigh needs.
  await staff.goto('/bounceBill');
  await staff.getByTestId('bill-add').click();
  const dialog = staff.getByTestId('bill-dialog');
  await dialog.getByTestId('bill-orderNo').fill(order.orderNo);
  await dialog.getByTestId('bill-submit').click();
  await expect(dialog.getByText('账单类型不能为空')).toBeVisible();
  await dialog.getByTestId('bill-type').click();
  await staff.getByTitle('重新称重').click();
  await dialog.getByTestId('bill-submit').click();
  await expect(dialog.getByText('申报重量(磅)不能为空')).toBeVisible();
  await dialog.getByTestId('bill-amount').fill('45.50');
  await dialog.getByTestId('bill-declared').fill('500');
  await dialog.getByTestId('bill-actual').fill('640');
  await dialog.getByTestId('bill-description').fill('Reweighed at the Dallas terminal');
  await staff.screenshot({ path: `${screenshotDir}bounce-bill-add-zh.png` });
  await dialog.getByTestId('bill-submit').click();
  await expect(dialog).toBeHidden();
  const billRow = staff.getByRole('row', { name: new RegExp(order.orderNo) });
  await expect(billRow).toContainText('已扣款');
  await expect(billRow).toContainText('45.50');
  await staff.screenshot({ path: `${screenshotDir}bounce-bills-zh.png` });

  // The customer disputes it: a work order opens on the bill.
  await customer.goto('/bounceBill');
  // The bill's notice pops up when the customer next opens the portal.
  const notice = customer.locator('.ant-modal-confirm').filter({ hasText: order.orderNo });
  await expect(notice).toContainText('45.50');
  await notice.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
  const mine = customer.getByRole('row', { name: new RegExp(order.orderNo) });
  await expect(mine).toContainText('已扣款');
  await mine.getByRole('button', { name: /申\s?诉/ }).click();
  const wo = customer.getByTestId('wo-dialog');
  await wo.getByTestId('wo-description').fill('The pallet weighed 500 lb at pickup; see the bill of lading');
  await customer.screenshot({ path: `${screenshotDir}work-order-dispute-zh.png` });
  await wo.getByTestId('wo-submit').click();
  await customer.waitForURL(/\/work-order-copy\?sn=WO/);
  const sn = new URL(customer.url()).searchParams.get('sn') ?? '';
  await expect(customer.getByText('待处理').first()).toBeVisible();
  await customer.getByTestId('wo-message-input').fill('Scale ticket attached to the order');
  await customer.getByTestId('wo-message-send').click();
  await expect(customer.getByText('Scale ticket attached to the order')).toBeVisible();

  // Staff find it in the list, accept it and refund part of the bill.
  await staff.goto('/workOrderList');
  await staff.getByTestId(`wo-${sn}`).click();
  await staff.waitForURL(/\/work-order-copy/);
  await staff.getByTestId('wo-action-accept').click();
  await staff.getByTestId('confirm-action').click();
  await expect(staff.getByText('处理中').first()).toBeVisible();
  await staff.getByTestId('wo-action-resolve').click();
  const resolve = staff.getByTestId('wo-resolve-dialog');
  await resolve.getByTestId('wo-consumption').click();
  await staff.getByTitle('退款', { exact: true }).click();
  await resolve.getByTestId('wo-result-amount').fill('999.00');
  await resolve.getByTestId('wo-resolve-remark').fill('Half the reweigh charge refunded');
  await resolve.getByTestId('wo-resolve-submit').click();
  await expect(resolve.getByText(/退款不能超过/)).toBeVisible();
  await staff.screenshot({ path: `${screenshotDir}work-order-resolve-zh.png` });
  await resolve.getByTestId('wo-result-amount').fill('20.00');
  await resolve.getByTestId('wo-resolve-submit').click();
  await expect(resolve).toBeHidden();
  await expect(staff.getByText('已解决').first()).toBeVisible();
  await staff.screenshot({ path: `${screenshotDir}work-order-zh.png`, fullPage: true });
  await staff.getByTestId('wo-back').click();
  await staff.getByTestId('wo-keyword').fill(sn);
  await staff.getByTestId('filter-search').click();
  const listed = staff.getByRole('row', { name: new RegExp(sn) });
  await expect(listed).toContainText('已解决');
  await expect(listed).toContainText('20.00');
  await expect(listed).toContainText('admin@example.com');
  await staff.screenshot({ path: `${screenshotDir}work-orders-zh.png` });
  // The dashboard counts what is still open: this one is not.
  await staff.goto('/dashboard');
  await expect(staff.getByTestId('stat-open-work-orders')).toContainText('0');
  await staff.screenshot({ path: `${screenshotDir}truck-dashboard-staff-zh.png`, fullPage: true });

  // The customer's order shows the surcharge and the refund in its ledger, in English too.
  await customer.goto(`/orderInfo?id=${order.id}`);
  const ledger = customer.getByTestId('order-ledger');
  await expect(ledger.getByRole('row', { name: /异常补扣/ })).toContainText('-45.50');
  await expect(ledger.getByRole('row', { name: /工单退款/ })).toContainText('20.00');
  await switchLanguage(customer, 'en');
  await customer.reload();
  await expect(ledger.getByRole('row', { name: /Work order refund/ })).toContainText(sn);
  // The order's own page lists its bill and work order too.
  await expect(customer.getByTestId('order-bills')).toContainText('Dispute settled');
  await expect(
    customer.getByTestId('order-work-orders').getByRole('row', { name: new RegExp(sn) }),
  ).toContainText('Refund 20.00');
  await customer.screenshot({ path: `${screenshotDir}order-ledger-work-order-en.png`, fullPage: true });
  await customer.goto(`/work-order-copy?sn=${sn}`);
  await expect(customer.getByText('Resolved').first()).toBeVisible();
  await expect(customer.getByText('Half the reweigh charge refunded').first()).toBeVisible();
  await expect(customer.getByTestId('wo-thread-closed')).toHaveText(
    'This work order is closed; no more messages',
  );
  await customer.screenshot({ path: `${screenshotDir}work-order-en.png`, fullPage: true });
  await customer.goto('/bounceBill');
  await expect(customer.getByRole('row', { name: new RegExp(order.orderNo) })).toContainText(
    'Dispute settled',
  );
  await customer.screenshot({ path: `${screenshotDir}bounce-bills-en.png` });
  await customer.goto('/workOrderList');
  await expect(customer.getByRole('row', { name: new RegExp(sn) })).toContainText('Resolved');
  await customer.screenshot({ path: `${screenshotDir}work-orders-en.png` });
  await switchLanguage(customer, 'zh');
});
