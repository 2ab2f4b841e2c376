/*
 * TEST-ONLY stand-in for Windows' bcryptprimitives.dll, built from this source by the
 * windows-x64 target tier (test/targets/targets.tier.ts) and placed next to a copy of the
 * executable under Wine. Wine 8 does not ship bcryptprimitives.dll; Bun's Windows runtime
 * imports one function from it, ProcessPrng, and without the DLL the executable cannot load.
 * Never shipped, never used on Windows itself.
 *
 * ProcessPrng fills `data` with `length` random bytes and always returns TRUE. This stub
 * draws them from RtlGenRandom (advapi32 SystemFunction036), which Wine implements.
 */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
    if (!RtlGenRandom(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
