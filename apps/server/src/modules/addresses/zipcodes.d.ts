// The `zipcodes` package ships no types; this declares the one call the address module makes.
declare module 'zipcodes' {
  interface ZipcodeRecord {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }
  function lookup(zip: string): ZipcodeRecord | undefined;
  const zipcodes: { lookup: typeof lookup };
  export default zipcodes;
}
