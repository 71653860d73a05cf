/**
 * A small typed layer over hyparquet-writer: describe a column's nested type once (strings,
 * int64, booleans, bytes, structs, lists) and get both the Parquet schema (3-level LISTs, as
 * Arrow, pandas and Hugging Face datasets write them) and values converted to fit it.
 *
 * Every field is written nullable (OPTIONAL), as Arrow writes by default, even where no value is
 * ever null: Hugging Face `datasets` applies the features stored in the file's metadata only to
 * columns whose Arrow field equals the one the features describe, nullability included, and
 * silently falls back to plain structs otherwise (an image then loads as a {bytes, path} dict).
 * Which values may really be missing is still checked on write (`optional`).
 */
import { writeFileSync } from 'node:fs';
import { parquetWriteBuffer, type SchemaElement } from 'hyparquet-writer';

/** `optional`: null is a value of the field (every field is written nullable; this says which may really be null). */
export type Field = { optional?: boolean } & (
  | { kind: 'string' }
  | { kind: 'int64' }
  | { kind: 'bool' }
  | { kind: 'binary' }
  | { kind: 'struct'; fields: Record<string, Field> }
  | { kind: 'list'; item: Field }
);

export const str: Field = { kind: 'string' };
export const int64: Field = { kind: 'int64' };
export const bool: Field = { kind: 'bool' };
export const binary: Field = { kind: 'binary' };
export const struct = (fields: Record<string, Field>, optional = false): Field => ({ kind: 'struct', fields, optional });
export const list = (item: Field): Field => ({ kind: 'list', item });
/** The field, with null allowed as a value. */
export const nullable = (f: Field): Field => ({ ...f, optional: true });

export interface Column {
  name: string;
  field: Field;
  data: unknown[];
}

function elements(name: string, f: Field): SchemaElement[] {
  const repetition = 'OPTIONAL';
  switch (f.kind) {
    case 'string':
      return [{ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: repetition }];
    case 'int64':
      return [{ name, type: 'INT64', repetition_type: repetition }];
    case 'bool':
      return [{ name, type: 'BOOLEAN', repetition_type: repetition }];
    case 'binary':
      return [{ name, type: 'BYTE_ARRAY', repetition_type: repetition }];
    case 'struct': {
      const keys = Object.keys(f.fields);
      return [
        { name, repetition_type: repetition, num_children: keys.length },
        ...keys.flatMap((k) => elements(k, f.fields[k])),
      ];
    }
    case 'list':
      return [
        { name, repetition_type: repetition, converted_type: 'LIST', num_children: 1 },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        ...elements('element', f.item),
      ];
  }
}

/** Convert a JS value to what the writer expects for the field (int64 as bigint, bytes as Uint8Array). */
function convert(v: unknown, f: Field, where: string): unknown {
  if (v === null || v === undefined) {
    if (f.optional) return null;
    throw new Error(`parquet column ${where}: missing value`);
  }
  switch (f.kind) {
    case 'string':
      return String(v);
    case 'int64':
      return BigInt(v as number);
    case 'bool':
      return Boolean(v);
    case 'binary':
      return v instanceof Uint8Array ? v : new Uint8Array(v as ArrayBuffer);
    case 'struct':
      return Object.fromEntries(Object.entries(f.fields).map(([k, sub]) => [k, convert((v as Record<string, unknown>)[k], sub, `${where}.${k}`)]));
    case 'list':
      return (v as unknown[]).map((x, i) => convert(x, f.item, `${where}[${i}]`));
  }
}

export function writeParquet(path: string, columns: Column[], kvMetadata?: Array<{ key: string; value: string }>): void {
  const schema: SchemaElement[] = [{ name: 'root', num_children: columns.length }, ...columns.flatMap((c) => elements(c.name, c.field))];
  const buf = parquetWriteBuffer({
    schema,
    columnData: columns.map((c) => ({ name: c.name, data: c.data.map((v, i) => convert(v, c.field, `${c.name}[${i}]`)) })),
    kvMetadata,
    createdBy: 'agent-lab-workbench',
  });
  writeFileSync(path, Buffer.from(buf));
}
