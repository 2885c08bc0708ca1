/* 105 nested if blocks in a C region (each block and each if counts): one error at level 201, no stack overflow. */
void mask(int n, const float *restrict t, float *restrict x)
{
#pragma stencil region
  for (int i = 0; i < n; i++) {
    if (t[i] > 0.0f) {
      if (t[i] > 1.0f) {
        if (t[i] > 2.0f) {
          if (t[i] > 3.0f) {
            if (t[i] > 4.0f) {
              if (t[i] > 5.0f) {
                if (t[i] > 6.0f) {
                  if (t[i] > 7.0f) {
                    if (t[i] > 8.0f) {
                      if (t[i] > 9.0f) {
                        if (t[i] > 10.0f) {
                          if (t[i] > 11.0f) {
                            if (t[i] > 12.0f) {
                              if (t[i] > 13.0f) {
                                if (t[i] > 14.0f) {
                                  if (t[i] > 15.0f) {
                                    if (t[i] > 16.0f) {
                                      if (t[i] > 17.0f) {
                                        if (t[i] > 18.0f) {
                                          if (t[i] > 19.0f) {
    if (t[i] > 20.0f) {
      if (t[i] > 21.0f) {
        if (t[i] > 22.0f) {
          if (t[i] > 23.0f) {
            if (t[i] > 24.0f) {
              if (t[i] > 25.0f) {
                if (t[i] > 26.0f) {
                  if (t[i] > 27.0f) {
                    if (t[i] > 28.0f) {
                      if (t[i] > 29.0f) {
                        if (t[i] > 30.0f) {
                          if (t[i] > 31.0f) {
                            if (t[i] > 32.0f) {
                              if (t[i] > 33.0f) {
                                if (t[i] > 34.0f) {
                                  if (t[i] > 35.0f) {
                                    if (t[i] > 36.0f) {
                                      if (t[i] > 37.0f) {
                                        if (t[i] > 38.0f) {
                                          if (t[i] > 39.0f) {
    if (t[i] > 40.0f) {
      if (t[i] > 41.0f) {
        if (t[i] > 42.0f) {
          if (t[i] > 43.0f) {
            if (t[i] > 44.0f) {
              if (t[i] > 45.0f) {
                if (t[i] > 46.0f) {
                  if (t[i] > 47.0f) {
                    if (t[i] > 48.0f) {
                      if (t[i] > 49.0f) {
                        if (t[i] > 50.0f) {
                          if (t[i] > 51.0f) {
                            if (t[i] > 52.0f) {
                              if (t[i] > 53.0f) {
                                if (t[i] > 54.0f) {
                                  if (t[i] > 55.0f) {
                                    if (t[i] > 56.0f) {
                                      if (t[i] > 57.0f) {
                                        if (t[i] > 58.0f) {
                                          if (t[i] > 59.0f) {
    if (t[i] > 60.0f) {
      if (t[i] > 61.0f) {
        if (t[i] > 62.0f) {
          if (t[i] > 63.0f) {
            if (t[i] > 64.0f) {
              if (t[i] > 65.0f) {
                if (t[i] > 66.0f) {
                  if (t[i] > 67.0f) {
                    if (t[i] > 68.0f) {
                      if (t[i] > 69.0f) {
                        if (t[i] > 70.0f) {
                          if (t[i] > 71.0f) {
                            if (t[i] > 72.0f) {
                              if (t[i] > 73.0f) {
                                if (t[i] > 74.0f) {
                                  if (t[i] > 75.0f) {
                                    if (t[i] > 76.0f) {
                                      if (t[i] > 77.0f) {
                                        if (t[i] > 78.0f) {
                                          if (t[i] > 79.0f) {
    if (t[i] > 80.0f) {
      if (t[i] > 81.0f) {
        if (t[i] > 82.0f) {
          if (t[i] > 83.0f) {
            if (t[i] > 84.0f) {
              if (t[i] > 85.0f) {
                if (t[i] > 86.0f) {
                  if (t[i] > 87.0f) {
                    if (t[i] > 88.0f) {
                      if (t[i] > 89.0f) {
                        if (t[i] > 90.0f) {
                          if (t[i] > 91.0f) {
                            if (t[i] > 92.0f) {
                              if (t[i] > 93.0f) {
                                if (t[i] > 94.0f) {
                                  if (t[i] > 95.0f) {
                                    if (t[i] > 96.0f) {
                                      if (t[i] > 97.0f) {
                                        if (t[i] > 98.0f) {
                                          if (t[i] > 99.0f) {
    if (t[i] > 100.0f) {
      if (t[i] > 101.0f) {
        if (t[i] > 102.0f) {
          if (t[i] > 103.0f) {
            if (t[i] > 104.0f) {
      x[i] = t[i];
            }
          }
        }
      }
    }
                                          }
                                        }
                                      }
                                    }
                                  }
                                }
                              }
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
                                          }
                                        }
                                      }
                                    }
                                  }
                                }
                              }
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
                                          }
                                        }
                                      }
                                    }
                                  }
                                }
                              }
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
                                          }
                                        }
                                      }
                                    }
                                  }
                                }
                              }
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
                                          }
                                        }
                                      }
                                    }
                                  }
                                }
                              }
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}
