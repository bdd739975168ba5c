import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testTempDir } from '../helpers/temp-dir.js';
import { DOT_COMMAND_NAMES } from '../../src/cli/commands.js';
import { completeLine, completePath } from '../../src/cli/completer.js';

const source = { dotCommands: DOT_COMMAND_NAMES, tables: () => ['lineitem', 'nation'], columns: () => ['l_shipdate', 'l_shipmode', 'n_name'] };

describe('completeLine', () => {
  it('completes keywords in the case they are typed', () => {
    expect(completeLine('sel', source)).toEqual([['select'], 'sel']);
    expect(completeLine('SEL', source)).toEqual([['SELECT'], 'SEL']);
    expect(completeLine('SELECT * FROM lineitem WHE', source)).toEqual([['WHEN', 'WHERE'], 'WHE']);
  });

  it('completes tables and columns anywhere (context-free)', () => {
    expect(completeLine('SELECT * FROM nat', source)).toEqual([['nation', 'natural'], 'nat']);
    expect(completeLine('SELECT l_ship', source)).toEqual([['l_shipdate', 'l_shipmode'], 'l_ship']);
    expect(completeLine('SELECT l.l_shipd', source)).toEqual([['l_shipdate'], 'l_shipd']);
    expect(completeLine('SELECT su', source)[0]).toContain('sum');
  });

  it('completes information_schema and, after its dot, its views', () => {
    expect(completeLine('SELECT * FROM info', source)).toEqual([['information_schema'], 'info']);
    expect(completeLine('SELECT * FROM information_schema.', source)).toEqual([['columns', 'schemata', 'tables', 'views'], '']);
    expect(completeLine('SELECT * FROM information_schema.t', source)).toEqual([['tables'], 't']);
    expect(completeLine('SELECT * FROM INFORMATION_SCHEMA.c', source)).toEqual([['columns'], 'c']);
  });

  it('offers nothing for an empty word or inside dot command arguments', () => {
    expect(completeLine('SELECT ', source)).toEqual([[], '']);
    expect(completeLine('.mode cs', source)).toEqual([[], '']);
  });

  it('completes dot commands and file names after .read / .open', () => {
    expect(completeLine('.ta', source)).toEqual([['.tables '], '.ta']);
    const dir = testTempDir('eddy-complete-');
    writeFileSync(join(dir, 'orders.csv'), 'a\n1\n');
    mkdirSync(join(dir, 'orders_dir'));
    expect(completeLine(`.open ${dir}/ord`, source)).toEqual([[`${dir}/orders.csv`, `${dir}/orders_dir/`], `${dir}/ord`]);
    expect(completePath(`${dir}/nothing`)).toEqual([]);
    expect(completePath('/no/such/dir/x')).toEqual([]);
  });
});
