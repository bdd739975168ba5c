/**
 * Page compressors for writing Parquet. hyparquet-writer compresses SNAPPY
 * itself and takes any other codec as a function; hyparquet-compressors only
 * decompresses, so the others come from node:zlib: GZIP (a gzip member, as
 * Parquet's GZIP codec is), BROTLI (quality 5: close to the best ratio at a
 * fraction of quality 11's time) and ZSTD (level 3, zstd's default) where
 * the runtime has `zlib.zstdCompressSync` (Node >= 22.15 / 23.8). LZ4 has no
 * compressor in the dependencies, so eddy reads LZ4 pages but does not write them.
 */
import * as zlib from 'node:zlib';
import { ValidationError } from '../relnode/errors.js';

/** Codecs `COPY ... (FORMAT parquet, COMPRESSION ...)` accepts, lower case. */
export type ParquetWriteCodec = 'snappy' | 'gzip' | 'brotli' | 'zstd' | 'uncompressed';

/** Every codec name a user may write, for validation and messages. */
export const PARQUET_WRITE_CODECS: readonly ParquetWriteCodec[] = ['snappy', 'zstd', 'gzip', 'brotli', 'uncompressed'];

type Compressor = (input: Uint8Array) => Uint8Array;

const zstdCompress = (zlib as unknown as { zstdCompressSync?: (b: Uint8Array) => Buffer }).zstdCompressSync;

/** hyparquet-writer's `codec` and `compressors` options for a codec; throws when this runtime cannot write it. */
export function parquetCodec(codec: ParquetWriteCodec): { codec: 'SNAPPY' | 'GZIP' | 'BROTLI' | 'ZSTD' | 'UNCOMPRESSED'; compressors: Record<string, Compressor> } {
  switch (codec) {
    case 'snappy': return { codec: 'SNAPPY', compressors: {} };
    case 'uncompressed': return { codec: 'UNCOMPRESSED', compressors: {} };
    case 'gzip': return { codec: 'GZIP', compressors: { GZIP: (b) => zlib.gzipSync(b) } };
    case 'brotli': return { codec: 'BROTLI', compressors: { BROTLI: (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }) } };
    case 'zstd':
      if (zstdCompress === undefined) {
        throw new ValidationError(`writing ZSTD parquet pages needs Node.js >= 22.15 (zlib.zstdCompressSync); this is ${process.version}. Use COMPRESSION snappy, gzip or brotli (eddy reads zstd files on any version)`);
      }
      return { codec: 'ZSTD', compressors: { ZSTD: (b) => zstdCompress(b) } };
  }
}

/** The codec named by a user (case-insensitive), or an error listing the ones eddy writes. */
export function parseParquetCodec(name: string): ParquetWriteCodec {
  const c = name.toLowerCase();
  if ((PARQUET_WRITE_CODECS as readonly string[]).includes(c)) return c as ParquetWriteCodec;
  const reads = c === 'lz4' || c === 'lz4_raw' ? ' (eddy reads LZ4 pages but has no LZ4 compressor to write them)' : '';
  throw new ValidationError(`parquet COMPRESSION must be one of ${PARQUET_WRITE_CODECS.join(', ')}, not ${name}${reads}`);
}
