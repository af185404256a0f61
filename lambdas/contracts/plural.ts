// One way to count things in a sentence, for the server's messages and the screens alike: "1 credit", "3 credits".

/** "1 photo", "2 photos", "1,000 credits" (en-US digits); `many` for irregular plurals. */
export const plural = (count: number, one: string, many = `${one}s`): string => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** "1 credit", "5 credits". */
export const creditCount = (count: number): string => plural(count, 'credit');
