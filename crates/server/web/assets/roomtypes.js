// The shapes the room page reads from the server (docs/protocol.md), for the type checker
// only: no page loads this file (its types are imported in JSDoc comments, which run nothing).
/**
 * @typedef {import('./net.js').Frame} Frame
 * @typedef {{seat: number, kind: string, name: string | null, open: boolean, online: boolean,
 *   autopilot: boolean, position: number, rank: number | null, standing?: string,
 *   carried?: string[], grace_left_ms?: number | null, autoplayed?: boolean}} SeatView
 * @typedef {{standing: string, carried?: string[]}} SeatLine
 * @typedef {{type: 'roll', seat: number, input: number} | {type: 'choice', seat: number,
 *   options: {steps: number, lands: number, top_face: boolean, landed: number,
 *   meets: 'nothing' | 'blocked' | 'snake' | 'ladder' | 'wormhole' | 'shield'}[], labels?: string[],
 *   input: number} | null} Awaiting
 * @typedef {{room: string, status: string, board_name: string, board: import('./geometry.js').BoardJson,
 *   rules: Record<string, any>, turn_time: number | null, seats: SeatView[], awaiting: Awaiting,
 *   turns: number, ranking: string[], seq: number, turn_left_ms?: number | null,
 *   game_time?: number | null, game_left_ms?: number | null, race?: string | null,
 *   legend?: {kind: string, name: string, meaning: string}[],
 *   awards?: {seat: number, achievement: string, text: string}[],
 *   fairness?: {commitment: string, seat_seeds: (string | null)[], secret: string | null,
 *     seed: number | null}, series?: Series | null, thrown_dice?: number}} RoomView
 * @typedef {import('./series.js').Series} Series
 * @typedef {{kind: 'event', seq: number, event: import('./plan.js').WireEvent, text?: string}
 *   | {kind: 'awaiting', awaiting: Awaiting, until?: number | null, seats?: SeatLine[],
 *     race?: string | null, series?: Series | null}
 *   | {kind: 'welcome', frame: Frame, until?: number | null}} Item
 */

export {};
