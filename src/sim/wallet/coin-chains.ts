/**
 * The coins the simulated exchange lists and the chains each moves on: exchangeInfo's `coins` rows
 * (API-NOTES §5.1) and the limits the simulated wallet enforces on deposits and withdrawals.
 */
export interface ChainRow {
  readonly chainType: string;
  readonly withdrawFee: string;
  readonly minWithdrawQuantity: string;
  /** "0": no maximum. */
  readonly maxWithdrawQuantity: string;
  readonly minDepositQuantity: string;
  readonly allowDeposit: boolean;
  readonly allowWithdraw: boolean;
}

export interface CoinRow {
  readonly coin: string;
  readonly fullName: string;
  readonly chains: readonly ChainRow[];
}

function chain(chainType: string, withdrawFee: string, minWithdrawQuantity: string, minDepositQuantity: string): ChainRow {
  return { chainType, withdrawFee, minWithdrawQuantity, maxWithdrawQuantity: '0', minDepositQuantity, allowDeposit: true, allowWithdraw: true };
}

/** Coins every simulated exchange lists; other base and settle coins get a generic row. */
const KNOWN_COINS: Readonly<Record<string, Omit<CoinRow, 'coin'>>> = {
  USDT: { fullName: 'TetherUS', chains: [chain('TRX', '1', '10', '1'), chain('ERC20', '3', '20', '5')] },
  USDC: { fullName: 'USD Coin', chains: [chain('ERC20', '3', '20', '5')] },
  BTC: { fullName: 'Bitcoin', chains: [chain('BTC', '0.0002', '0.001', '0.0001')] },
  ETH: { fullName: 'Ethereum', chains: [chain('ERC20', '0.002', '0.01', '0.001')] },
};

const GENERIC_CHAINS: readonly ChainRow[] = [chain('ERC20', '0', '0', '0')];

/** The listed coins for these base and settle coins: the known ones first, then the others. */
export function listedCoins(extra: Iterable<string>): CoinRow[] {
  const coins = new Set(Object.keys(KNOWN_COINS));
  for (const coin of extra) coins.add(coin);
  return [...coins].map(coinRowOf);
}

export function coinRowOf(coin: string): CoinRow {
  const known = KNOWN_COINS[coin];
  return { coin, fullName: known?.fullName ?? coin, chains: known?.chains ?? GENERIC_CHAINS };
}
