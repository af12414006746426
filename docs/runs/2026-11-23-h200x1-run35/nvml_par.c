/* Do NVML's slow first calls (temperature, threshold, power, clock, clock reasons, ECC, PCIe gen, replays) overlap
 * on threads? argv[1]: "seq" or "par". A throwaway probe, not part of Railyard. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
static void *lib, *dev;
static void *call(void *arg) {
  int k = *(int*)arg; unsigned u; unsigned long long ull;
  switch (k) {
    case 0: ((int(*)(void*,int,unsigned*))dlsym(lib,"nvmlDeviceGetTemperature"))(dev,0,&u); break;
    case 1: ((int(*)(void*,int,unsigned*))dlsym(lib,"nvmlDeviceGetTemperatureThreshold"))(dev,1,&u); break;
    case 2: ((int(*)(void*,unsigned*))dlsym(lib,"nvmlDeviceGetPowerUsage"))(dev,&u); break;
    case 3: ((int(*)(void*,int,unsigned*))dlsym(lib,"nvmlDeviceGetClockInfo"))(dev,1,&u); break;
    case 4: ((int(*)(void*,unsigned long long*))dlsym(lib,"nvmlDeviceGetCurrentClocksEventReasons"))(dev,&ull); break;
    case 5: ((int(*)(void*,int,int,unsigned long long*))dlsym(lib,"nvmlDeviceGetTotalEccErrors"))(dev,0,0,&ull); break;
    case 6: ((int(*)(void*,unsigned*))dlsym(lib,"nvmlDeviceGetCurrPcieLinkGeneration"))(dev,&u); break;
    case 7: ((int(*)(void*,unsigned*))dlsym(lib,"nvmlDeviceGetPcieReplayCounter"))(dev,&u); break;
  }
  return 0;
}
int main(int argc, char **argv) {
  lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
  double t0 = now(); ((int(*)(void))dlsym(lib,"nvmlInit_v2"))(); double t1 = now();
  ((int(*)(unsigned,void**))dlsym(lib,"nvmlDeviceGetHandleByIndex_v2"))(0,&dev); double t2 = now();
  int ks[8] = {0,1,2,3,4,5,6,7}; pthread_t th[8];
  if (strcmp(argv[1], "par") == 0) { for (int i=0;i<8;i++) pthread_create(&th[i],0,call,&ks[i]); for (int i=0;i<8;i++) pthread_join(th[i],0); }
  else for (int i=0;i<8;i++) call(&ks[i]);
  double t3 = now();
  printf("%s init %.2f handle %.2f eight-calls %.2f ms\n", argv[1], t1-t0, t2-t1, t3-t2);
  ((int(*)(void))dlsym(lib,"nvmlShutdown"))();
  return 0;
}
