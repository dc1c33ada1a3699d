// The main() of every C++ test program (cpp/tests/test_*.cpp, doctest cases run by ctest).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
