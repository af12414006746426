/* Times each NVML call inventory makes on GPU 0 (a throwaway probe, not part of Railyard). */
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
#include <pthread.h>
typedef int (*f0)(void);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
static void *lib;
static void *sym(const char*n){void*p=dlsym(lib,n); if(!p) printf("missing %s\n",n); return p;}
#define T(label, call) do { double t0=now(); int rc=(call); printf("%-40s rc=%-3d %8.3f ms\n", label, rc, now()-t0); } while(0)
static void *dev;
static void *links(void *arg){ int lo=*(int*)arg; int (*st)(void*,unsigned,int*)=sym("nvmlDeviceGetNvLinkState"); int a; double t0=now(); for(unsigned l=lo;l<18;l+=2) st(dev,l,&a); printf("links from %d on a thread: %.3f ms\n", lo, now()-t0); return 0; }
int main(void){
  double t0=now(); lib=dlopen("libnvidia-ml.so.1",RTLD_NOW); printf("dlopen %.3f ms\n", now()-t0);
  T("nvmlInit_v2", ((f0)sym("nvmlInit_v2"))());
  unsigned n; T("nvmlDeviceGetCount_v2", ((int(*)(unsigned*))sym("nvmlDeviceGetCount_v2"))(&n));
  T("nvmlDeviceGetHandleByIndex_v2", ((int(*)(unsigned,void**))sym("nvmlDeviceGetHandleByIndex_v2"))(0,&dev));
  char buf[256]; unsigned u; unsigned long long ull; int i; unsigned char pci[128];
  T("nvmlDeviceGetName", ((int(*)(void*,char*,unsigned))sym("nvmlDeviceGetName"))(dev,buf,96));
  T("nvmlDeviceGetUUID", ((int(*)(void*,char*,unsigned))sym("nvmlDeviceGetUUID"))(dev,buf,96));
  T("nvmlDeviceGetPciInfo_v3", ((int(*)(void*,void*))sym("nvmlDeviceGetPciInfo_v3"))(dev,pci));
  T("nvmlDeviceGetMemoryInfo", ((int(*)(void*,void*))sym("nvmlDeviceGetMemoryInfo"))(dev,pci));
  T("nvmlDeviceGetTemperature", ((int(*)(void*,int,unsigned*))sym("nvmlDeviceGetTemperature"))(dev,0,&u));
  T("nvmlDeviceGetTemperatureThreshold", ((int(*)(void*,int,unsigned*))sym("nvmlDeviceGetTemperatureThreshold"))(dev,1,&u));
  T("nvmlDeviceGetPowerUsage", ((int(*)(void*,unsigned*))sym("nvmlDeviceGetPowerUsage"))(dev,&u));
  T("nvmlDeviceGetEnforcedPowerLimit", ((int(*)(void*,unsigned*))sym("nvmlDeviceGetEnforcedPowerLimit"))(dev,&u));
  T("nvmlDeviceGetClockInfo", ((int(*)(void*,int,unsigned*))sym("nvmlDeviceGetClockInfo"))(dev,1,&u));
  T("nvmlDeviceGetCurrentClocksEventReasons", ((int(*)(void*,unsigned long long*))sym("nvmlDeviceGetCurrentClocksEventReasons"))(dev,&ull));
  for (int e=0;e<2;e++) for (int c=0;c<2;c++) T("nvmlDeviceGetTotalEccErrors", ((int(*)(void*,int,int,unsigned long long*))sym("nvmlDeviceGetTotalEccErrors"))(dev,e,c,&ull));
  unsigned a,b,c2,d; T("nvmlDeviceGetRemappedRows", ((int(*)(void*,unsigned*,unsigned*,unsigned*,unsigned*))sym("nvmlDeviceGetRemappedRows"))(dev,&a,&b,&c2,&d));
  T("nvmlDeviceGetCurrPcieLinkGeneration", ((int(*)(void*,unsigned*))sym("nvmlDeviceGetCurrPcieLinkGeneration"))(dev,&u));
  T("nvmlDeviceGetMaxPcieLinkGeneration", ((int(*)(void*,unsigned*))sym("nvmlDeviceGetMaxPcieLinkGeneration"))(dev,&u));
  T("nvmlDeviceGetCurrPcieLinkWidth", ((int(*)(void*,unsigned*))sym("nvmlDeviceGetCurrPcieLinkWidth"))(dev,&u));
  T("nvmlDeviceGetMaxPcieLinkWidth", ((int(*)(void*,unsigned*))sym("nvmlDeviceGetMaxPcieLinkWidth"))(dev,&u));
  double l0=now(); for (unsigned l=0;l<18;l++) { int rc=((int(*)(void*,unsigned,int*))sym("nvmlDeviceGetNvLinkState"))(dev,l,&i); if(l==0||l==17) printf("nvlink state link %u rc=%d\n",l,rc);} printf("18 x nvmlDeviceGetNvLinkState %.3f ms\n", now()-l0);
  T("nvmlDeviceGetPersistenceMode", ((int(*)(void*,int*))sym("nvmlDeviceGetPersistenceMode"))(dev,&i));
  T("nvmlDeviceGetPcieReplayCounter", ((int(*)(void*,unsigned*))sym("nvmlDeviceGetPcieReplayCounter"))(dev,&u));
  int z0=0,z1=1; pthread_t p0,p1; double tp=now(); pthread_create(&p0,0,links,&z0); pthread_create(&p1,0,links,&z1); pthread_join(p0,0); pthread_join(p1,0); printf("18 links over 2 threads: %.3f ms\n", now()-tp);
  T("second nvmlDeviceGetPowerUsage", ((int(*)(void*,unsigned*))sym("nvmlDeviceGetPowerUsage"))(dev,&u));
  T("nvmlShutdown", ((f0)sym("nvmlShutdown"))());
  printf("total since dlopen %.3f ms\n", now()-t0);
  return 0;
}
