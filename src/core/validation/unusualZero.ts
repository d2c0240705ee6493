// When a 0 stands out among a source's records: shared by the zeros' words (views/zeroContext),
// the coverage's note of the days such zeros fall on and the trend charts' markers (insights).

/** Fewer other records than this: no 0 is called unusual ("19 in 20" needs twenty to mean anything). */
export const UNUSUAL_EVIDENCE = 20;
/**
 * A 0 stands out when at least this share (19 in 20) of the source's other records send the field as
 * another number: a wrist tracker's steps, not its vigorous minutes (0 on a quiet day).
 */
export const UNUSUAL_SHARE = 0.95;

/** Whether a 0 stands out: `sent` of the `compared` other records of its source have the field as another number. */
export function isUnusualZero(sent: number, compared: number): boolean {
  return compared >= UNUSUAL_EVIDENCE && sent >= UNUSUAL_SHARE * compared;
}
