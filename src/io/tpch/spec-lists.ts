/**
 * The fixed value lists of the TPC-H specification (clause 4.2.2 and 4.2.3):
 * regions, nations with their regions, part name colors, part type and
 * container syllables, market segments, order priorities, ship instructions
 * and ship modes. Order matters: list position is the dictionary code.
 */

/** r_name by r_regionkey. */
export const REGIONS: readonly string[] = ['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST'];

/** n_name by n_nationkey. */
export const NATIONS: readonly string[] = [
  'ALGERIA', 'ARGENTINA', 'BRAZIL', 'CANADA', 'EGYPT', 'ETHIOPIA', 'FRANCE', 'GERMANY', 'INDIA',
  'INDONESIA', 'IRAN', 'IRAQ', 'JAPAN', 'JORDAN', 'KENYA', 'MOROCCO', 'MOZAMBIQUE', 'PERU', 'CHINA',
  'ROMANIA', 'SAUDI ARABIA', 'VIETNAM', 'RUSSIA', 'UNITED KINGDOM', 'UNITED STATES',
];

/** n_regionkey by n_nationkey. */
export const NATION_REGIONS: readonly number[] = [
  0, 1, 1, 1, 4, 0, 3, 3, 2, 2, 4, 4, 2, 4, 0, 0, 0, 1, 2, 3, 4, 2, 3, 3, 1,
];

/** The 92 words p_name picks five distinct ones from. */
export const COLORS: readonly string[] = [
  'almond', 'antique', 'aquamarine', 'azure', 'beige', 'bisque', 'black', 'blanched', 'blue', 'blush',
  'brown', 'burlywood', 'burnished', 'chartreuse', 'chiffon', 'chocolate', 'coral', 'cornflower',
  'cornsilk', 'cream', 'cyan', 'dark', 'deep', 'dim', 'dodger', 'drab', 'firebrick', 'floral', 'forest',
  'frosted', 'gainsboro', 'ghost', 'goldenrod', 'green', 'grey', 'honeydew', 'hot', 'indian', 'ivory',
  'khaki', 'lace', 'lavender', 'lawn', 'lemon', 'light', 'lime', 'linen', 'magenta', 'maroon', 'medium',
  'metallic', 'midnight', 'mint', 'misty', 'moccasin', 'navajo', 'navy', 'olive', 'orange', 'orchid',
  'pale', 'papaya', 'peach', 'peru', 'pink', 'plum', 'powder', 'puff', 'purple', 'red', 'rose', 'rosy',
  'royal', 'saddle', 'salmon', 'sandy', 'seashell', 'sienna', 'sky', 'slate', 'smoke', 'snow', 'spring',
  'steel', 'tan', 'thistle', 'tomato', 'turquoise', 'violet', 'wheat', 'white', 'yellow',
];

/** p_type = syllable 1 + ' ' + syllable 2 + ' ' + syllable 3 (150 combinations). */
export const TYPE_SYLLABLES: readonly (readonly string[])[] = [
  ['STANDARD', 'SMALL', 'MEDIUM', 'LARGE', 'ECONOMY', 'PROMO'],
  ['ANODIZED', 'BURNISHED', 'PLATED', 'POLISHED', 'BRUSHED'],
  ['TIN', 'NICKEL', 'BRASS', 'STEEL', 'COPPER'],
];

/** p_container = syllable 1 + ' ' + syllable 2 (40 combinations). */
export const CONTAINER_SYLLABLES: readonly (readonly string[])[] = [
  ['SM', 'LG', 'MED', 'JUMBO', 'WRAP'],
  ['CASE', 'BOX', 'BAG', 'JAR', 'PKG', 'PACK', 'CAN', 'DRUM'],
];

/** c_mktsegment values. */
export const SEGMENTS: readonly string[] = ['AUTOMOBILE', 'BUILDING', 'FURNITURE', 'MACHINERY', 'HOUSEHOLD'];

/** o_orderpriority values. */
export const PRIORITIES: readonly string[] = ['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW'];

/** l_shipinstruct values. */
export const INSTRUCTIONS: readonly string[] = ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'];

/** l_shipmode values. */
export const SHIP_MODES: readonly string[] = ['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'];

/** Every combination of the syllable lists, first list varying slowest. */
export function combineSyllables(lists: readonly (readonly string[])[]): string[] {
  let out = [''];
  for (const list of lists) {
    out = out.flatMap((prefix) => list.map((s) => (prefix === '' ? s : `${prefix} ${s}`)));
  }
  return out;
}
