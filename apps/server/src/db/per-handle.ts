/**
 * Something a database handle builds once and keeps, such as its prepared statements: `build` runs on
 * the handle's first use. The driver then prepares each named statement once per connection, and a hot
 * call no longer builds its SQL again each time. Two databases in one process (the tests open several)
 * never share what was built.
 */
export function perHandle<D extends object, T>(build: (db: D) => T): (db: D) => T {
  const built = new WeakMap<D, T>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) {
      value = build(db);
      built.set(db, value);
    }
    return value;
  };
}
