// English plurals for counts the texts receive already formatted ("1", "1,234"): one is "1".
export const counted = (count: string, one: string, other: string): string => `${count} ${count === '1' ? one : other}`;
