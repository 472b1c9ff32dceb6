import { test } from '@playwright/test';
import { session } from '../fixtures.ts';
import { seedListRows, sweepMenu } from '../layout-sweep.ts';

// The staff's sweep, in a file of its own so that it may run beside the customer's
// (list-layout.spec.ts): the customer's rows it looks at are made here too.
test("every list page of admin's menu keeps its cells clear of the pinned columns at 390 and 1440 px, in Chinese and English", async ({
  page,
  browser,
}) => {
  test.setTimeout(900_000);
  const customer = await browser.newPage({ locale: 'zh-CN' });
  await session(customer, 'customer@example.com');
  await seedListRows(customer);
  await customer.close();
  await session(page, 'admin@example.com');
  await sweepMenu(page, 'admin');
});
