// Types of the part of js-quantities src/values/quantities.ts uses (the package ships none).
declare module 'js-quantities' {
  interface Qty {
    readonly scalar: number;
    units(): string;
    kind(): string;
    isUnitless(): boolean;
    isCompatible(other: Qty | string): boolean;
    mul(other: number | Qty): Qty;
    to(units: string | Qty): Qty;
    toBase(): Qty;
  }
  interface QtyStatic {
    (value: string | number, units?: string): Qty;
    parse(value: string): Qty | null;
  }
  const Qty: QtyStatic;
  export default Qty;
}
